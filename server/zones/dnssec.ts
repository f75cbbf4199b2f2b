import type { DnssecState, ToggleDnssecInput } from '#core/wire/dnssec.ts';
import { conflict } from '../domain-errors.ts';
import { DEFAULT_SIGNING, ensureZoneKey, readSigning, removeZoneKey, setDenial, type SigningChoice } from '../dnssec/keys.ts';
import { dnssecState } from '../dnssec/state.ts';
import type { ZoneCommand } from './pipeline.ts';

const choiceOf = (s: SigningChoice): SigningChoice => ({ algorithm: s.algorithm, denial: s.denial, nsec3OptOut: s.nsec3OptOut });

/**
 * Signs a zone (creates its key, of the chosen algorithm), stops signing it (removes the key), or changes how it
 * proves absence (NSEC or NSEC3: the next version of the zone carries the other chain, signed by the same key, so a
 * validator holding the DS validates every answer throughout). A choice left out keeps the zone's; asking for what
 * the zone has changes nothing.
 */
export function dnssecCommand(input: Omit<ToggleDnssecInput, 'normalizedDomainName'>): ZoneCommand<DnssecState> {
  return {
    async apply(tx, zone) {
      if (!input.enabled) {
        const removed = await removeZoneKey(tx, zone.name);
        return { result: await dnssecState(tx, zone.name), facts: removed ? { changes: [], dnssec: { before: true, after: false } } : null };
      }
      const before = await readSigning(tx, zone.name);
      const base = before ?? DEFAULT_SIGNING;
      const after: SigningChoice = { algorithm: input.algorithm ?? base.algorithm, denial: input.denial ?? base.denial, nsec3OptOut: input.nsec3OptOut ?? base.nsec3OptOut };
      if (!before) {
        await ensureZoneKey(tx, zone.name, after);
        return { result: await dnssecState(tx, zone.name), facts: { changes: [], dnssec: { before: false, after: true }, dnssecSigning: { before: null, after } } };
      }
      if (after.algorithm !== before.algorithm) {
        throw conflict(`${zone.name} is signed with algorithm ${before.algorithm}; changing the algorithm of a signed zone needs a rollover, which this service does not do yet: turn DNSSEC off and on again with the new algorithm (the DS at the parent must change meanwhile)`);
      }
      if (after.denial === before.denial && after.nsec3OptOut === before.nsec3OptOut) return { result: await dnssecState(tx, zone.name), facts: null };
      await setDenial(tx, zone.name, after);
      return { result: await dnssecState(tx, zone.name), facts: { changes: [], dnssecSigning: { before: choiceOf(before), after } } };
    },
  };
}
