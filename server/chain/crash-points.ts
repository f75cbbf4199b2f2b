/**
 * Named places where the kill -9 suite (`kill-nine.test.ts`) makes the service die as a crash would: with
 * `NAMEFI_CRASH_AT=<point>:<n>` the process SIGKILLs itself the n-th time it reaches `<point>`. Unset (always, outside
 * that suite) this does nothing. Points: `chain-write` (a chain transaction was mined, the database transaction
 * around it has not committed), `atomic-write` (a state file's temp copy is on disk, not yet renamed).
 */
const [point, nth] = (process.env.NAMEFI_CRASH_AT ?? '').split(':');
let reached = 0;

export function crashPoint(name: string): void {
  if (!point || name !== point) return;
  reached += 1;
  if (reached === Number(nth)) process.kill(process.pid, 'SIGKILL');
}
