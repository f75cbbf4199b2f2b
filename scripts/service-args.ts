/**
 * How to run the service with node. --max-semi-space-size=1 (MiB) keeps V8's young generation small: the start's
 * burst of short-lived objects (migrations, contract deployment on anvil) otherwise grows it to 3 × 16 MiB that stays
 * committed while idle — measured 55–85 MiB more idle RSS with CHAIN=anvil. `npm run service` uses the same flag.
 */
export const SERVICE_NODE_ARGS = ['--max-semi-space-size=1', '--import', 'tsx', 'server/main.ts'];
