/**
 * An algorithm rollover as RFC 6781 §4.1.4 orders it, the conservative way: every set is signed with the new key
 * before its DNSKEY is published (so a validator that sees the new DNSKEY finds a signature of its algorithm over
 * every set it holds, RFC 4035 §2.2), the DS at the parent changes only once the new DNSKEY is in every cache, and
 * the old DNSKEY goes only once the old DS is out of every cache, its signatures last. Both keys sign every set in
 * every phase; what the apex publishes moves from phase to phase. Shared by the service (what it serves, when it
 * moves on) and the dashboard (what it tells the owner).
 */
export const ROLLOVER_PHASES = ['new-rrsigs', 'new-dnskey', 'new-ds', 'ds-changed', 'dnskey-removal'] as const;
export type RolloverPhase = (typeof ROLLOVER_PHASES)[number];

/** The phase after `phase`, or `done`: the old key and its signatures gone, the new key the zone's only key. */
export function nextPhase(phase: RolloverPhase): RolloverPhase | 'done' {
  const at = ROLLOVER_PHASES.indexOf(phase);
  return at === ROLLOVER_PHASES.length - 1 ? 'done' : ROLLOVER_PHASES[at + 1];
}

/**
 * Which keys the apex publishes in a phase: the DNSKEY set, and the key CDS and CDNSKEY name (RFC 7344: the DS the
 * zone wants at its parent, so a parent that reads them follows). The new key's CDS appears when the parent may
 * take the new DS, not before.
 */
export function publishedKeys(phase: RolloverPhase): { dnskey: Array<'old' | 'new'>; cds: 'old' | 'new' } {
  switch (phase) {
    case 'new-rrsigs':
      return { dnskey: ['old'], cds: 'old' };
    case 'new-dnskey':
      return { dnskey: ['old', 'new'], cds: 'old' };
    case 'new-ds':
    case 'ds-changed':
      return { dnskey: ['old', 'new'], cds: 'new' };
    case 'dnskey-removal':
      return { dnskey: ['new'], cds: 'new' };
  }
}

/** The DS the parent should hold during a phase: the old one until the new DNSKEY is in every cache, then the new. */
export const parentDsKey = (phase: RolloverPhase): 'old' | 'new' => publishedKeys(phase).cds;

/** Each phase in a few words, as a history entry and the dashboard say it. */
export const ROLLOVER_PHASE_WORDS: Record<RolloverPhase | 'done', string> = {
  'new-rrsigs': 'every set signed with the new key too; its DNSKEY not yet published',
  'new-dnskey': 'both keys published (DNSKEY), every set signed by both',
  'new-ds': 'the new DS may go to the parent (CDS and CDNSKEY name the new key)',
  'ds-changed': 'the parent holds the new DS; the old key stays until the old DS has left every cache',
  'dnskey-removal': 'the old DNSKEY removed; its signatures stay until it has left every cache',
  done: 'done: the old key and its signatures removed; the zone is signed with the new key alone',
};
