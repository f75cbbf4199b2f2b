/**
 * How to run the service with node. --max-semi-space-size=4 (MiB) keeps V8's young generation small: the start's
 * burst of short-lived objects (migrations, contract deployment on anvil) otherwise grows it to 3 × 16 MiB that stays
 * committed while idle — measured 55–85 MiB more idle RSS with CHAIN=anvil. It was 1 MiB; at 4 a cold pass over
 * 100,000 zones answered 7,060–9,393 q/s against 5,589–8,084 (fewer scavenges, less promoted to the old space) for
 * 2–5 MiB more RSS there and 0–11 MiB more idle (`bench:service-start`: 217–234 MiB, within its 250). --liftoff-only keeps PGlite's WebAssembly
(PostgreSQL) on V8's baseline compiler: its optimised tier-up code and the compiler's memory stayed resident, ~35–45 MiB
of idle RSS, for no difference in the service's request times (`npm run bench:service`, measured both ways). `npm run
service` uses the same flags. --heap-growing-percent=20 lets V8's old space grow to 1.2× what the last full collection
kept rather than up to 4×: with 100,000 zones asked, a live heap of ~115 MiB sat in 357–460 MiB of heap (RSS 567–674
MiB); at 50%, 216–226 MiB (RSS 420–443), for ~20% of the cold and warm rates (more frequent collections); at 20%,
with query analytics' counts packed (query-counts.ts), 114–124 MiB (RSS 347–372), the rates within their noise.
 */
export const SERVICE_NODE_ARGS = ['--max-semi-space-size=4', '--liftoff-only', '--heap-growing-percent=20', '--import', 'tsx', 'server/main.ts'];
