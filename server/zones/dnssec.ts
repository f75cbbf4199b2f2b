import type { DnssecState } from '#core/wire/dnssec.ts';
import { ensureZoneKey, removeZoneKey } from '../dnssec/keys.ts';
import { dnssecState } from '../dnssec/state.ts';
import type { ZoneCommand } from './pipeline.ts';

/** Signs a zone (creates its key) or stops signing it (removes the key); asking for the state it has changes nothing. */
export function dnssecCommand(enabled: boolean): ZoneCommand<DnssecState> {
  return {
    async apply(tx, zone) {
      const changed = enabled ? await ensureZoneKey(tx, zone.name) : await removeZoneKey(tx, zone.name);
      const facts = changed ? { changes: [], dnssec: { before: !enabled, after: enabled } } : null;
      return { result: await dnssecState(tx, zone.name), facts };
    },
  };
}
