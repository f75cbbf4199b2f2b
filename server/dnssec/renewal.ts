import type { Queryable } from '../db/database.ts';
import { RENEW_SECONDS, VALIDITY_SECONDS } from './sign-zone.ts';

/**
 * Renews the signatures of every signed zone that has less than RENEW_SECONDS of them left: its signing epoch moves
 * to `now` and its version with it, in one statement. The version's trigger bumps the serial and announces the zone
 * (migration 035), so every instance signs it again from the new epoch, its packet cache empties, and the
 * secondaries are sent a NOTIFY and transfer the new signatures, which a serial left as it was would never make them
 * do. The row lock makes it happen once however many instances run it. Answers the zones renewed.
 */
export async function renewDueSignatures(q: Queryable, now: Date): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `WITH due AS (
       UPDATE dnssec_keys SET signing_epoch = $1::timestamptz
        WHERE signing_epoch <= $1::timestamptz - make_interval(secs => $2)
        RETURNING zone_name)
     UPDATE domains SET zone_version = gen_random_uuid() FROM due WHERE domains.name = due.zone_name RETURNING domains.name`,
    [now.toISOString(), VALIDITY_SECONDS - RENEW_SECONDS],
  );
  return rows.map((r) => r.name).sort();
}

/**
 * Runs renewDueSignatures now and every `intervalMs` (a renewal falls due 3 days before signatures run out, so an
 * hour's delay costs nothing). A failed round is reported and tried again at the next.
 */
export function startSignatureRenewal(
  q: Queryable,
  options: { intervalMs?: number; now?: () => Date; onError?: (error: Error) => void } = {},
): { ready: Promise<void>; stop(): Promise<void> } {
  const intervalMs = options.intervalMs ?? 15 * 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const round = () => {
    running = renewDueSignatures(q, options.now?.() ?? new Date()).then(
      () => undefined,
      (error: Error) => options.onError?.(error),
    );
    return running.finally(() => {
      if (stopped) return;
      timer = setTimeout(round, intervalMs);
      timer.unref?.();
    });
  };
  const ready = round();
  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
