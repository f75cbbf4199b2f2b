import { RENEW_SECONDS, VALIDITY_SECONDS } from '../dnssec/sign-zone.ts';
import { serviceAuthor } from '../history/record-change.ts';
import { startPollLoop } from '../support/poll-loop.ts';
import { changeZone, type PipelineServices, type ZoneCommand } from './pipeline.ts';

const RENEWAL_AGE_SECONDS = VALIDITY_SECONDS - RENEW_SECONDS;

/**
 * Moves a signed zone's signing epoch to `now` when its signatures have less than RENEW_SECONDS left: a change of the
 * zone like any other (a new serial, so every instance signs it again from the new epoch, its packet cache empties,
 * and the secondaries are sent a NOTIFY and transfer the new signatures), whose history entry's actor is the service,
 * saying why. Under the zone's lock, a zone another instance renewed a moment ago is no longer due: nothing changes.
 */
function renewSignaturesCommand(now: Date): ZoneCommand<boolean> {
  return {
    async apply(tx, zone) {
      const [row] = await tx.query<{ expired_at: Date | string }>(
        `UPDATE dnssec_keys k SET signing_epoch = $2::timestamptz
           FROM (SELECT signing_epoch FROM dnssec_keys WHERE zone_name = $1) old
          WHERE k.zone_name = $1 AND k.signing_epoch <= $2::timestamptz - make_interval(secs => $3)
          RETURNING old.signing_epoch + make_interval(secs => $4) AS expired_at`,
        [zone.name, now.toISOString(), RENEWAL_AGE_SECONDS, VALIDITY_SECONDS],
      );
      return { result: row !== undefined, facts: row ? { changes: [], dnssec: { before: true, after: true } } : null };
    },
  };
}

const reason = 'DNSSEC signatures renewed before they lapse';

/** Renews every signed zone whose signatures are due (see renewSignaturesCommand). Answers the zones renewed. */
export async function renewDueSignatures(services: PipelineServices, now: Date): Promise<string[]> {
  const due = await services.db.query<{ zone_name: string }>(
    'SELECT zone_name FROM dnssec_keys WHERE signing_epoch <= $1::timestamptz - make_interval(secs => $2) ORDER BY zone_name',
    [now.toISOString(), RENEWAL_AGE_SECONDS],
  );
  const renewed: string[] = [];
  for (const { zone_name: zoneName } of due) {
    const changed = await changeZone(services, { zoneName, by: { author: serviceAuthor('renewDnssecSignatures', reason) }, command: renewSignaturesCommand(now), now });
    if (changed) renewed.push(zoneName);
  }
  return renewed;
}

/**
 * Runs renewDueSignatures now and every `intervalMs` (a renewal falls due 3 days before signatures run out, so an
 * hour's delay costs nothing). A failed round is reported and tried again at the next.
 */
export function startSignatureRenewal(
  services: PipelineServices,
  options: { intervalMs?: number; now?: () => Date; onError?: (error: Error) => void } = {},
): { ready: Promise<void>; stop(): Promise<void> } {
  const loop = startPollLoop(() => renewDueSignatures(services, options.now?.() ?? new Date()).then(() => undefined), {
    pollMs: options.intervalMs ?? 15 * 60_000,
    onError: options.onError,
  });
  return { ready: loop.ready, stop: loop.stop };
}
