import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY, typesForMethod } from '#core/eip712/registry.ts';
import { signingDomain } from '../auth/signing-domain.ts';
import type { Handlers, RequestContext } from '../http/context.ts';

/**
 * The operations' accepted types without a prototype: `method` comes from the query, and `constructor`,
 * `toString` or `__proto__` must be unknown methods, not Object.prototype's members.
 */
const ACCEPTED_BY_METHOD: Record<string, string[]> = Object.assign(Object.create(null) as Record<string, string[]>, ACCEPTED_PRIMARY_TYPES);

/** The registry the service verifies with is the one it publishes. The local domain is the service's own name, chain-agnostic: `chain` is ignored. */
export const eip712Handlers: Handlers = {
  getEip712Domain: async ({ services }: RequestContext) => signingDomain(services.config),
  getAllEip712Types: async () => TYPE_REGISTRY,
  getEip712TypesForMethod: async ({ input }: { input: { method: string } }) => typesForMethod(TYPE_REGISTRY, ACCEPTED_BY_METHOD, input.method),
};
