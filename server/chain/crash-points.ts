import { writeSync } from 'node:fs';

/** What the process prints on stdout as it dies at a crash point, so the suite knows where each kill happened. */
export const CRASH_MARKER = 'Crash point reached:';

/**
 * Named places where the kill -9 suite (`kill-nine.test.ts`) makes the service die as a crash would: with
 * `NAMEFI_CRASH_AT=<point>:<n>` the process SIGKILLs itself the n-th time it reaches `<point>`. Unset (always, outside
 * that suite) this does nothing. Points: `chain-write` (a chain transaction was mined, the database transaction
 * around it has not committed), `atomic-write` (a state file's temp copy is on disk, not yet renamed), `x402-settled`
 * (an x402 payment is on the chain, its order not written), `account-deployed` (a smart account was deployed and
 * journaled), `renewal-charged` (a renewal order is charged, its expiry not yet moved; test/chain/kill-nine-renewal.test.ts),
 * `dns-update-answered` (a DNS UPDATE's NOERROR was handed to the socket; test/chain/kill-nine-update.test.ts). Before dying it prints `Crash point reached: <point>:<n>` on stdout.
 */
const [point, nth] = (process.env.NAMEFI_CRASH_AT ?? '').split(':');
let reached = 0;

export function crashPoint(name: string): void {
  if (!point || name !== point) return;
  reached += 1;
  if (reached !== Number(nth)) return;
  try {
    writeSync(1, `${CRASH_MARKER} ${name}:${reached}\n`);
  } finally {
    process.kill(process.pid, 'SIGKILL');
  }
}
