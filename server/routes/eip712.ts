import type { Handlers } from '../http/context.ts';

// Placeholder until its engineer lands the handlers.
export const eip712Handlers: Handlers = {};
