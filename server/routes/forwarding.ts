import type { Forwarding, SetForwardingInput } from '../../src/core/wire/forwarding.ts';
import { requireRegisteredDomain } from '../dns/domain-access.ts';
import { readForwarding } from '../dns/forwarding-store.ts';
import { notFound } from '../domain-errors.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { tryForwarder } from '../forwarder/forwarder.ts';
import { forwardingCommand } from '../zones/forwarding.ts';
import { changeZone } from '../zones/pipeline.ts';

export const forwardingHandlers: Handlers = {
  async getForwarding({ input, services }: RequestContext<{ normalizedDomainName: string }>): Promise<Forwarding> {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return readForwarding(services.db, input.normalizedDomainName);
  },

  setForwarding: ({ input, services, principal, operationId }: RequestContext<SetForwardingInput>): Promise<Forwarding> =>
    changeZone(services, { zoneName: input.normalizedDomainName, by: { principal, operation: operationId }, command: forwardingCommand(input) }),

  async tryForwarding({ input, services }: RequestContext<{ normalizedDomainName: string; path: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    if (!services.forwarderOrigin) throw notFound('This service runs no forwarder (FORWARD_PORT is not set)');
    return tryForwarder(services.forwarderOrigin, input.normalizedDomainName, input.path);
  },
};
