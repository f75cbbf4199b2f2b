import type { ToggleDnssecInput } from '../../src/core/wire/dnssec.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { touchZone } from '../dns/zone-write.ts';
import { ensureZoneKey, removeZoneKey } from '../dnssec/keys.ts';
import { dnssecState } from '../dnssec/state.ts';
import { authorOf, recordChange } from '../history/record-change.ts';
import type { Handlers, RequestContext } from '../http/context.ts';

export const dnssecHandlers: Handlers = {
  async getDnssec({ input, services }: RequestContext<{ normalizedDomainName: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return dnssecState(services.db, input.normalizedDomainName);
  },

  /** Creates or removes the zone's key; a change of state is a change of the zone (new serial, signed or not at once). */
  async toggleDnssec({ input, services, principal, operationId }: RequestContext<ToggleDnssecInput>) {
    const zone = input.normalizedDomainName;
    return services.db.transaction(async (tx) => {
      await requireOwnedDomain(services, tx, zone, principal);
      const changed = input.enabled ? await ensureZoneKey(tx, zone) : await removeZoneKey(tx, zone);
      if (changed) {
        await touchZone(tx, zone);
        await recordChange(tx, zone, authorOf(operationId, principal!), { changes: [], dnssec: { before: !input.enabled, after: input.enabled } }, services.now());
      }
      return dnssecState(tx, zone);
    });
  },
};
