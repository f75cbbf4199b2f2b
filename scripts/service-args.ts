/**
 * How to run the service with node. --max-semi-space-size=1 (MiB) keeps V8's young generation small: the start's
 * burst of short-lived objects (migrations, contract deployment on anvil) otherwise grows it to 3 × 16 MiB that stays
 * committed while idle — measured 55–85 MiB more idle RSS with CHAIN=anvil. --liftoff-only keeps PGlite's WebAssembly
(PostgreSQL) on V8's baseline compiler: its optimised tier-up code and the compiler's memory stayed resident, ~35–45 MiB
of idle RSS, for no difference in the service's request times (`npm run bench:service`, measured both ways). `npm run
service` uses the same flags.
 */
export const SERVICE_NODE_ARGS = ['--max-semi-space-size=1', '--liftoff-only', '--import', 'tsx', 'server/main.ts'];
