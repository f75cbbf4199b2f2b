import type { Forwarding, SetForwardingInput } from '../../src/core/wire/forwarding.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { readForwarding, writeForwarding } from '../dns/forwarding-store.ts';
import { authorOf } from '../history/record-change.ts';
import { notFound } from '../http/errors.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { tryForwarder } from '../forwarder/forwarder.ts';

export const forwardingHandlers: Handlers = {
  async getForwarding({ input, services }: RequestContext<{ normalizedDomainName: string }>): Promise<Forwarding> {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return readForwarding(services.db, input.normalizedDomainName);
  },

  async setForwarding({ input, services, principal, operationId }: RequestContext<SetForwardingInput>): Promise<Forwarding> {
    return services.db.transaction(async (tx) => {
      await requireOwnedDomain(services, tx, input.normalizedDomainName, principal);
      return writeForwarding(tx, input, services.now(), authorOf(operationId, principal!));
    });
  },

  async tryForwarding({ input, services }: RequestContext<{ normalizedDomainName: string; path: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    if (!services.forwarderOrigin) throw notFound('This service runs no forwarder (FORWARD_PORT is not set)');
    return tryForwarder(services.forwarderOrigin, input.normalizedDomainName, input.path);
  },
};
