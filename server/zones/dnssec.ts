import { algorithmOf, fromBase64, type DnssecAlgorithm } from '#core/dns/dnssec.ts';
import { ROLLOVER_PHASE_WORDS } from '#core/dns/rollover.ts';
import type { ZoneChangeFacts } from '#core/wire/history.ts';
import type { DnssecState, ToggleDnssecInput } from '#core/wire/dnssec.ts';
import type { Queryable } from '../db/database.ts';
import { conflict, invalidInput } from '../domain-errors.ts';
import { DEFAULT_SIGNING, ensureZoneKey, publicView, readSigning, removeZoneKey, setDenial, type SigningChoice } from '../dnssec/keys.ts';
import { enterPhase, readRollover, startRollover, type RolloverTimers } from '../dnssec/rollover.ts';
import { dnssecState } from '../dnssec/state.ts';
import type { ZoneCommand } from './pipeline.ts';

const choiceOf = (s: SigningChoice): SigningChoice => ({ algorithm: s.algorithm, denial: s.denial, nsec3OptOut: s.nsec3OptOut });

/**
 * Signs a zone (creates its key, of the chosen algorithm), stops signing it (removes the key, and a rollover's), or
 * changes how it is signed. Another proof of absence (NSEC or NSEC3): the next version carries the other chain,
 * signed by the same key, so the DS at the parent stays valid. Another algorithm: an algorithm rollover begins
 * (RFC 6781 §4.1.4, server/zones/dnssec-rollover.ts moves it on), so a validator holding the old DS, and later one
 * holding the new, validates every answer throughout. A choice left out keeps the zone's (during a rollover, the
 * algorithm it rolls to); asking for what the zone has changes nothing. With `dsAtParent`, the owner says the parent
 * holds the new key's DS: the rollover's step that lets the old key go once the old DS has left the caches.
 */
export function dnssecCommand(input: Omit<ToggleDnssecInput, 'normalizedDomainName'>, timers: RolloverTimers): ZoneCommand<DnssecState> {
  return {
    async apply(tx, zone, { now }) {
      // The word about the parent is a request of its own: taken with nothing else, so what was asked is what is done.
      if (input.dsAtParent !== undefined && (!input.enabled || input.algorithm !== undefined || input.denial !== undefined || input.nsec3OptOut !== undefined)) {
        throw invalidInput({ dsAtParent: ['Say that the parent holds the new DS on its own: with enabled true and no other choice'] });
      }
      if (!input.enabled) {
        const removed = await removeZoneKey(tx, zone.name);
        return { result: await dnssecState(tx, zone.name), facts: removed ? { changes: [], dnssec: { before: true, after: false } } : null };
      }
      if (input.dsAtParent !== undefined) {
        const facts = await confirmParentDs(tx, zone.name, input.dsAtParent, now, timers);
        return { result: await dnssecState(tx, zone.name), facts };
      }
      const signed = await readSigning(tx, zone.name);
      const rolling = await readRollover(tx, zone.name);
      // During a rollover the zone's algorithm is the one it rolls to.
      const before = signed && { ...choiceOf(signed), algorithm: rolling ? algorithmOf(fromBase64(rolling.publicKey)) : signed.algorithm };
      const base = before ?? DEFAULT_SIGNING;
      const after: SigningChoice = { algorithm: input.algorithm ?? base.algorithm, denial: input.denial ?? base.denial, nsec3OptOut: input.nsec3OptOut ?? base.nsec3OptOut };
      if (!signed || !before) {
        await ensureZoneKey(tx, zone.name, after);
        return { result: await dnssecState(tx, zone.name), facts: { changes: [], dnssec: { before: false, after: true }, dnssecSigning: { before: null, after } } };
      }
      const facts: ZoneChangeFacts = { changes: [], dnssecSigning: { before, after } };
      if (after.algorithm !== before.algorithm) {
        if (rolling) {
          throw conflict(
            `${zone.name} is rolling over to algorithm ${before.algorithm} (${ROLLOVER_PHASE_WORDS[rolling.phase]}): another algorithm can be chosen once that rollover is done`,
            { phase: rolling.phase },
          );
        }
        await startRollover(tx, zone.name, after.algorithm as DnssecAlgorithm, now, timers);
        const next = await readRollover(tx, zone.name);
        facts.dnssecRollover = { from: keyFacts(zone.name, signed.publicKey), to: keyFacts(zone.name, next!.publicKey), phase: { before: null, after: 'new-rrsigs' } };
      }
      const denialChanged = after.denial !== before.denial || after.nsec3OptOut !== before.nsec3OptOut;
      if (!facts.dnssecRollover && !denialChanged) return { result: await dnssecState(tx, zone.name), facts: null };
      if (denialChanged) await setDenial(tx, zone.name, after);
      return { result: await dnssecState(tx, zone.name), facts };
    },
  };
}

const keyFacts = (zone: string, publicKey: string) => {
  const view = publicView(zone, publicKey);
  return { algorithm: view.algorithm, keyTag: view.keyTag };
};

/**
 * The owner's word that the parent holds the new key's DS. Taken in the phase that asks for it (`new-ds`); before
 * it, the new DNSKEY may not yet be in every cache, so a validator holding only the new DS could fail: refused,
 * saying when. Said again later, it changes nothing.
 */
async function confirmParentDs(tx: Queryable, zone: string, keyTag: number, now: Date, timers: RolloverTimers): Promise<ZoneChangeFacts | null> {
  const [signed, rolling] = [await readSigning(tx, zone), await readRollover(tx, zone)];
  if (!signed || !rolling) throw conflict(`${zone} has no algorithm rollover under way: there is no new DS to put at the parent`);
  const [from, to] = [keyFacts(zone, signed.publicKey), keyFacts(zone, rolling.publicKey)];
  if (keyTag !== to.keyTag) {
    throw invalidInput({ dsAtParent: [`The parent should hold the DS of the new key, key tag ${to.keyTag} (algorithm ${to.algorithm}); ${keyTag} is not it`] });
  }
  if (rolling.phase === 'new-rrsigs' || rolling.phase === 'new-dnskey') {
    const when = rolling.dueAt ? ` It may from the next step${rolling.phase === 'new-dnskey' ? `, due ${rolling.dueAt.toISOString()}` : ''}.` : '';
    throw conflict(`Too early: the new DNSKEY of ${zone} has not yet reached every cache, so the new DS must not be at the parent yet (a validator holding only it could fail).${when}`, { phase: rolling.phase });
  }
  if (rolling.phase !== 'new-ds') return null;
  await enterPhase(tx, zone, 'ds-changed', now, timers);
  return { changes: [], dnssecRollover: { from, to, phase: { before: 'new-ds', after: 'ds-changed' }, dsAtParent: keyTag } };
}
