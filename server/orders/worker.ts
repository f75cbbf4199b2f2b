import type { Services } from '../http/context.ts';

// Placeholder until the orders engineer lands the worker.
export function startOrderWorker(_services: Services): { wake(): void; stop(): Promise<void> } {
  return { wake() {}, async stop() {} };
}
