import type { ToggleDnssecInput } from '../../src/core/wire/dnssec.ts';
import { requireRegisteredDomain } from '../dns/domain-access.ts';
import { dnssecState } from '../dnssec/state.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { dnssecCommand } from '../zones/dnssec.ts';
import { changeZone } from '../zones/pipeline.ts';

export const dnssecHandlers: Handlers = {
  async getDnssec({ input, services }: RequestContext<{ normalizedDomainName: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return dnssecState(services.db, input.normalizedDomainName);
  },

  /** Creates or removes the zone's key; a change of state is a change of the zone (new serial, signed or not at once). */
  toggleDnssec: ({ input, services, principal, operationId }: RequestContext<ToggleDnssecInput>) =>
    changeZone(services, { zoneName: input.normalizedDomainName, by: { principal, operation: operationId }, command: dnssecCommand(input.enabled) }),
};
