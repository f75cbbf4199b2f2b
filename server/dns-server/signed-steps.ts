import type { Answer } from 'dns-packet';
import { DNSSEC_TYPE_NUMBERS } from '#core/dns/dnssec.ts';
import { toAbsolute } from '#core/dns/names.ts';
import { TYPE_NUMBERS } from '#core/dns/wire-rdata.ts';
import type { SignedZone } from '../dnssec/sign-zone.ts';
import { nsecAt, rrsigFor } from './dnssec-answers.ts';
import type { SetType, ZoneSnapshot } from './zone-snapshot.ts';

/**
 * What a signed zone's change did to its DNSSEC records (issue 37 item 4): the NSEC records and RRSIGs that went and
 * came between two signed snapshots. The history holds the records each change made; this holds what signing them
 * made, which no entry holds. Kept in memory per instance, for the last STEPS_KEPT loads of each zone: IXFR of a
 * signed zone is answered from them when every step since the client's serial is here, else with the whole zone.
 */
export interface SignedStep {
  from: number;
  to: number;
  deleted: Answer[];
  added: Answer[];
}

const STEPS_KEPT = 64;
const TYPE_BY_NUMBER = new Map<number, SetType>(
  Object.entries({ ...TYPE_NUMBERS, DNSKEY: DNSSEC_TYPE_NUMBERS.DNSKEY, CDS: DNSSEC_TYPE_NUMBERS.CDS, CDNSKEY: DNSSEC_TYPE_NUMBERS.CDNSKEY, NSEC3PARAM: DNSSEC_TYPE_NUMBERS.NSEC3PARAM }).map(([type, n]) => [n, type as SetType]),
);
export const answerKey = (a: Answer) => `${a.name.toLowerCase()} ${a.type} ${(a as { ttl?: number }).ttl ?? ''} ${JSON.stringify((a as { data?: unknown }).data)}`;

/** The NSEC and RRSIG records at one owner, as AXFR sends them. */
function dnssecRecordsAt(snapshot: ZoneSnapshot, rel: string): Answer[] {
  if (!snapshot.signed) return [];
  const owner = toAbsolute(rel, snapshot.zone);
  const node = snapshot.nodes.get(rel);
  const out = nsecAt(snapshot, rel);
  for (const type of snapshot.signed.rrsigs.get(rel)?.keys() ?? []) {
    const set = node?.get(TYPE_BY_NUMBER.get(type) as SetType);
    if (set) out.push(...rrsigFor(snapshot, rel, type, owner, set.ttl));
  }
  return out;
}

const keyOf = (signed: SignedZone | undefined) => (signed ? Buffer.from(signed.dnskey).toString('base64') : '');
const sameKeys = (a: SignedZone, b: SignedZone) => keyOf(a) === keyOf(b) && keyOf(a.also) === keyOf(b.also) && (!a.also || b.also?.touched !== undefined);

/** The step from `before` to `after`, or null when `after` was signed whole (which owners differ is not known). */
export function signedStep(before: ZoneSnapshot, after: ZoneSnapshot): SignedStep | null {
  const touched = after.signed?.touched;
  if (!before.signed || !touched || after.serial <= before.serial) return null;
  // A rollover's key came or went: every owner's RRSIGs changed, which `touched` does not say.
  if (!sameKeys(before.signed, after.signed as SignedZone)) return null;
  const deleted: Answer[] = [];
  const added: Answer[] = [];
  for (const rel of touched) {
    const old = dnssecRecordsAt(before, rel);
    const now = dnssecRecordsAt(after, rel);
    const oldKeys = new Set(old.map(answerKey));
    const nowKeys = new Set(now.map(answerKey));
    deleted.push(...old.filter((a) => !nowKeys.has(answerKey(a))));
    added.push(...now.filter((a) => !oldKeys.has(answerKey(a))));
  }
  return { from: before.serial, to: after.serial, deleted, added };
}

/** The steps of each zone, by the serial they start from. */
export function signedSteps() {
  const byZone = new Map<string, Map<number, SignedStep>>();
  return {
    keep(zone: string, step: SignedStep | null): void {
      const steps = byZone.get(zone) ?? new Map<number, SignedStep>();
      if (!step) return void byZone.delete(zone);
      steps.set(step.from, step);
      if (steps.size > STEPS_KEPT) steps.delete(steps.keys().next().value as number);
      byZone.set(zone, steps);
    },
    /** The steps from serial `from` to `to`, in order, or null when one is missing. */
    between(zone: string, from: number, to: number): SignedStep[] | null {
      const steps = byZone.get(zone);
      const out: SignedStep[] = [];
      for (let at = from; at < to; ) {
        const step = steps?.get(at);
        if (!step || step.to > to) return null;
        out.push(step);
        at = step.to;
      }
      return out;
    },
  };
}
