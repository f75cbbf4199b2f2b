import { expiryState, type ExpiryPolicy } from '#core/expiry.ts';
import type { Config } from '../config.ts';
import { DomainError } from '../domain-errors.ts';
import { serviceAuthor } from '../history/record-change.ts';
import type { Services } from '../services.ts';
import { startPollLoop } from '../support/poll-loop.ts';
import { changeZone, type PipelineServices, type ZoneCommand } from './pipeline.ts';

/**
 * Expiry as a life cycle the service follows (core/expiry.ts says the states): a domain entering redemption gets
 * the "expired" holding page in place of its records, one leaving it (renewed: its expiry moved into the future) gets
 * its records back, each a change of the zone through the pipeline (a new serial, an entry in the history saying
 * "Expired: …" or "Restored: …"); a domain past redemption is released: its token burned, its settings, records and
 * history deleted, its name available again. The worker follows the service's clock, so the test clock moves it.
 */

export const expiryPolicy = (config: Pick<Config, 'GRACE_DAYS' | 'REDEMPTION_DAYS'>): ExpiryPolicy => ({ graceDays: config.GRACE_DAYS, redemptionDays: config.REDEMPTION_DAYS });

/** Turns the holding page on (redemption) or off (restored), re-checked under the zone's lock: a zone already so changes nothing. */
function holdingPageCommand(now: Date, policy: ExpiryPolicy): ZoneCommand<boolean> {
  return {
    async apply(tx, zone) {
      const status = expiryState(new Date(zone.expires_at), now, policy).status;
      const expired = status === 'redemption';
      if (status === 'released' || expired === zone.expired) return { result: false, facts: null };
      await tx.query('UPDATE domains SET expired = $2 WHERE name = $1', [zone.name, expired]);
      return { result: true, facts: { changes: [], expired: { before: zone.expired, after: expired } } };
    },
  };
}

const WORDS = {
  expire: 'the domain passed its grace period unrenewed; its records stop answering until it is renewed with the restore fee',
  restore: 'the domain was renewed; the holding page ends and its records answer again',
};

/**
 * Deletes what a released domain leaves behind and ends it in the registry (its token burned on a chain), in one
 * transaction that holds the domain's row: of several instances one releases it, the others find it gone. A burn
 * the transaction did not outlive (a crash) is found done on the next round, which finishes the rest.
 */
async function releaseDomain(services: Pick<Services, 'db' | 'ownership'>, name: string, now: Date, policy: ExpiryPolicy): Promise<boolean> {
  return services.db.transaction(async (tx) => {
    const [row] = await tx.query<{ expires_at: Date | string }>('SELECT expires_at FROM domains WHERE name = $1 FOR UPDATE', [name]);
    if (!row || expiryState(new Date(row.expires_at), now, policy).status !== 'released') return false;
    await tx.query('DELETE FROM dns_records WHERE zone_name = $1', [name]);
    await tx.query('DELETE FROM zone_history WHERE zone_name = $1', [name]);
    await services.ownership.release(name, tx);
    return true;
  });
}

interface ExpiryRound {
  expired: string[];
  restored: string[];
  released: string[];
}

/** One look at every domain whose state and zone disagree, at `now`. */
async function followExpiry(services: PipelineServices & Pick<Services, 'ownership'>, now: Date): Promise<ExpiryRound> {
  const policy = expiryPolicy(services.config);
  const day = 86_400;
  const due = await services.db.query<{ name: string; expires_at: Date | string; expired: boolean }>(
    `SELECT name, expires_at, expired FROM domains
      WHERE expires_at + make_interval(secs => $2) <= $1::timestamptz
         OR (expired AND expires_at + make_interval(secs => $2) > $1::timestamptz)
      ORDER BY name`,
    [now.toISOString(), policy.graceDays * day],
  );
  const round: ExpiryRound = { expired: [], restored: [], released: [] };
  for (const row of due) {
    const status = expiryState(new Date(row.expires_at), now, policy).status;
    if (status === 'released') {
      if (await releaseDomain(services, row.name, now, policy)) round.released.push(row.name);
      continue;
    }
    const entering = status === 'redemption';
    if (entering === row.expired) continue;
    const author = serviceAuthor(entering ? 'expireDomain' : 'restoreDomain', entering ? WORDS.expire : WORDS.restore);
    const changed = await changeZone(services, { zoneName: row.name, by: { author }, command: holdingPageCommand(now, policy), now }).catch((error: unknown) => {
      // Released by another instance meanwhile: nothing left to change.
      if (error instanceof DomainError && error.kind === 'not-found') return false;
      throw error;
    });
    if (changed) (entering ? round.expired : round.restored).push(row.name);
  }
  return round;
}

/**
 * Runs followExpiry now, every `intervalMs`, and at once when woken (the test clock moved): `wake()` answers once a
 * round that began after it has finished, so a move of the clock answers after the zones have followed it. A failed
 * round is reported and tried again at the next.
 */
export function startExpiryWorker(
  services: PipelineServices & Pick<Services, 'ownership'>,
  options: { intervalMs?: number; onError?: (error: Error) => void } = {},
): { wake(): Promise<void>; stop(): Promise<void> } {
  const loop = startPollLoop(() => followExpiry(services, services.now()).then(() => undefined), { pollMs: options.intervalMs ?? 5_000, onError: options.onError });
  return { wake: loop.wake, stop: loop.stop };
}
