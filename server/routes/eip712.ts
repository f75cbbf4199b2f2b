import { ACCEPTED_PRIMARY_TYPES, SIGNING_DOMAIN, TYPE_REGISTRY, typesForMethod } from '../../src/core/eip712/registry.ts';
import type { Handlers } from '../http/context.ts';

/** The registry the service verifies with is the one it publishes. The local domain is chain-agnostic: `chain` is ignored. */
export const eip712Handlers: Handlers = {
  getEip712Domain: async () => ({ ...SIGNING_DOMAIN }),
  getAllEip712Types: async () => TYPE_REGISTRY,
  getEip712TypesForMethod: async ({ input }: { input: { method: string } }) => typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, input.method),
};
