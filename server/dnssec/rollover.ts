import { DNSKEY_TTL, type DnssecAlgorithm } from '#core/dns/dnssec.ts';
import type { RolloverPhase } from '#core/dns/rollover.ts';
import type { Queryable } from '../db/database.ts';
import { generateZoneKey } from './keys.ts';

/**
 * A zone's algorithm rollover as stored (table dnssec_rollovers, migration 087): the new key beside the zone's key,
 * the phase (#core/dns/rollover.ts says what each publishes) and when the next step is due. The steps themselves are
 * changes of the zone through the pipeline (server/zones/dnssec-rollover.ts).
 */

/**
 * A day: the DS TTL most top-level domains publish (.com's among them). The parent, not the zone, chooses it, so the
 * old key stays this long after the owner says the parent holds the new DS, whatever TTL the DS was given.
 */
const PARENT_DS_TTL = 86400;

/** What the waits are made of: the zone's SOA timers and the TTL of its provider's records. */
export interface RolloverTimers {
  refresh: number;
  retry: number;
  /** The SOA's and NS records' own TTL, and the negative-caching TTL (SOA minimum), which NSEC records take. */
  soaTtl: number;
  nsTtl: number;
  minimum: number;
}

/**
 * How long a change takes to reach every secondary: at once with NOTIFY, but one that missed it asks at its next
 * refresh, and after a failed try at the retry after that.
 */
const propagationOf = (timers: RolloverTimers) => timers.refresh + timers.retry;

/**
 * How long a phase lasts, in seconds, as RFC 6781 §4.1.4 asks (each wait lets what caches held before the phase
 * expire everywhere): after the new signatures, the zone's largest TTL (every cached set then carries both); after
 * the new DNSKEY, its TTL (every cached DNSKEY set holds it); after the parent's DS changed, the parent's DS TTL;
 * after the old DNSKEY went, its TTL again. Each plus the propagation to the secondaries. Null for `new-ds`: the
 * parent changes the DS when the owner (or a parent reading CDS) does, which the owner says.
 */
function phaseSeconds(phase: RolloverPhase, maxTtl: number, timers: RolloverTimers): number | null {
  const propagation = propagationOf(timers);
  switch (phase) {
    case 'new-rrsigs':
      return maxTtl + propagation;
    case 'new-dnskey':
    case 'dnskey-removal':
      return DNSKEY_TTL + propagation;
    case 'new-ds':
      return null;
    case 'ds-changed':
      return PARENT_DS_TTL + propagation;
  }
}

/** The largest TTL the zone serves: its records', its ALIAS targets' addresses', its SOA, NS, DNSKEY and NSEC records'. */
async function zoneMaxTtl(q: Queryable, zone: string, timers: RolloverTimers): Promise<number> {
  const [row] = await q.query<{ ttl: number | string | null }>(
    `SELECT GREATEST((SELECT max(ttl) FROM dns_records WHERE zone_name = $1), (SELECT max(ttl) FROM alias_addresses WHERE zone_name = $1)) AS ttl`,
    [zone],
  );
  return Math.max(Number(row?.ttl ?? 0), timers.soaTtl, timers.nsTtl, Math.min(timers.minimum, timers.soaTtl), DNSKEY_TTL);
}

/** When the phase that began at `since` ends, or null when the owner ends it. */
export async function dueAt(q: Queryable, zone: string, phase: RolloverPhase, since: Date, timers: RolloverTimers): Promise<Date | null> {
  const seconds = phaseSeconds(phase, await zoneMaxTtl(q, zone, timers), timers);
  return seconds === null ? null : new Date(since.getTime() + seconds * 1000);
}

export interface Rollover {
  /** The new key's public key (base64), as dnssec_keys.public_key. */
  publicKey: string;
  phase: RolloverPhase;
  since: Date;
  dueAt: Date | null;
}

/** The zone's rollover, or null when none is under way. Never reads the private key. */
export async function readRollover(q: Queryable, zone: string): Promise<Rollover | null> {
  const [row] = await q.query<{ public_key: string; phase: RolloverPhase; phase_since: Date | string; due_at: Date | string | null }>(
    'SELECT public_key, phase, phase_since, due_at FROM dnssec_rollovers WHERE zone_name = $1',
    [zone],
  );
  return row ? { publicKey: row.public_key, phase: row.phase, since: new Date(row.phase_since), dueAt: row.due_at === null ? null : new Date(row.due_at) } : null;
}

/** Makes the key of the new algorithm and starts signing with it (phase `new-rrsigs`), in the caller's transaction. */
export async function startRollover(q: Queryable, zone: string, algorithm: DnssecAlgorithm, now: Date, timers: RolloverTimers): Promise<void> {
  const key = generateZoneKey(algorithm);
  const due = await dueAt(q, zone, 'new-rrsigs', now, timers);
  await q.query(`INSERT INTO dnssec_rollovers (zone_name, public_key, private_key, phase, phase_since, due_at) VALUES ($1, $2, $3, 'new-rrsigs', $4, $5)`, [
    zone,
    key.public_key,
    key.private_key,
    now.toISOString(),
    due?.toISOString() ?? null,
  ]);
}

/** Moves the rollover to `phase` from `now`. */
export async function enterPhase(q: Queryable, zone: string, phase: RolloverPhase, now: Date, timers: RolloverTimers): Promise<void> {
  const due = await dueAt(q, zone, phase, now, timers);
  await q.query('UPDATE dnssec_rollovers SET phase = $2, phase_since = $3, due_at = $4 WHERE zone_name = $1', [zone, phase, now.toISOString(), due?.toISOString() ?? null]);
}

/** Puts the next step off to `due` (the zone's largest TTL grew since the phase began). */
export async function postpone(q: Queryable, zone: string, due: Date): Promise<void> {
  await q.query('UPDATE dnssec_rollovers SET due_at = $2 WHERE zone_name = $1', [zone, due.toISOString()]);
}

/** The last step: the new key becomes the zone's only key, and the old key (and with it its signatures) is gone. */
export async function finishRollover(q: Queryable, zone: string): Promise<void> {
  await q.query(
    `UPDATE dnssec_keys k SET public_key = r.public_key, private_key = r.private_key, algorithm = CASE WHEN length(decode(r.public_key, 'base64')) = 32 THEN 15 ELSE 13 END
       FROM dnssec_rollovers r WHERE k.zone_name = $1 AND r.zone_name = $1`,
    [zone],
  );
  await q.query('DELETE FROM dnssec_rollovers WHERE zone_name = $1', [zone]);
}

/** Zones whose rollover's next step is due at `now`. */
export async function dueRollovers(q: Queryable, now: Date): Promise<string[]> {
  const rows = await q.query<{ zone_name: string }>('SELECT zone_name FROM dnssec_rollovers WHERE due_at <= $1::timestamptz ORDER BY zone_name', [now.toISOString()]);
  return rows.map((row) => row.zone_name);
}
