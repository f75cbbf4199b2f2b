import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBrowser } from './find-browser.ts';
import { findPostgresBin, NO_POSTGRES_MESSAGE } from '../test/support/postgres-server.ts';
import { bindToolsMissing } from '../test/support/bind.ts';
import { nameServersMissing } from '../test/support/name-servers.ts';
import { updateToolsMissing } from '../test/support/dns-update.ts';
import { acmeToolsMissing } from '../test/support/acme.ts';

/** `npm test`: type check, lint, unit and service tests, then the browser journeys. Stops at the first failure. */
/** The kill -9 suites: the journey's points, the renewal's (a charge made, its expiry not yet moved), DNS UPDATE's (a NOERROR sent). */
const KILL_NINE = ['test/chain/kill-nine.test.ts', 'test/chain/kill-nine-renewal.test.ts', 'test/chain/kill-nine-update.test.ts'];
const steps: Array<[string, string[]]> = [
  ['Type check', ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['Lint', ['npx', 'oxlint', '--deny-warnings', 'core', 'src', 'server', 'e2e', 'scripts', 'test']],
  // The service's layers and folders (.dependency-cruiser.cjs); the dashboard's rules are scripts/import-boundaries.test.ts.
  ['Import boundaries', ['npx', 'depcruise', 'server', 'core', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']],
  ['Dead code', ['npx', 'knip', '--no-progress']],
  // The kill -9 suite restarts the real service dozens of times: it runs alone, after the rest, with the machine to itself.
  ['Unit and service tests', ['npx', 'vitest', 'run', ...KILL_NINE.flatMap((file) => ['--exclude', file])]],
  // One file at a time: each restarts a real service dozens of times and times its kills.
  ['kill -9 suite', ['npx', 'vitest', 'run', '--no-file-parallelism', ...KILL_NINE]],
];

/** How long each step took, printed after every step and in full at the end (the suite must stay under 25 minutes). */
const timings: Array<[string, number]> = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
function printTimings(): void {
  const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`\nTime per step:\n${timings.map(([label, ms]) => `  ${label.padEnd(24)} ${seconds(ms)}`).join('\n')}\n  ${'Total'.padEnd(24)} ${seconds(total)}`);
}

function run(label: string, [cmd, ...args]: string[], env: NodeJS.ProcessEnv = process.env, onFailure?: () => void): void {
  console.log(`\n▶ ${label}: ${[cmd, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  timings.push([label, Date.now() - started]);
  console.log(`  ${label}: ${seconds(Date.now() - started)}`);
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed.`);
    onFailure?.();
    printTimings();
    process.exit(result.status ?? 1);
  }
}

// Said before anything runs: the DATABASE_URL tests start a real PostgreSQL server of their own.
const postgresBin = findPostgresBin();
if (!postgresBin) {
  console.error(`\n✖ ${NO_POSTGRES_MESSAGE}`);
  process.exit(1);
}
console.log(`PostgreSQL for the DATABASE_URL tests: ${postgresBin}`);
// The DNS tests compare zone files with BIND 9's reader, ask the local name server with dig, and validate its
// DNSSEC answers with delv and its signed zones with dnssec-verify.
const bindMissing = bindToolsMissing();
if (bindMissing) {
  console.error(`\n✖ ${bindMissing}`);
  process.exit(1);
}
// The secondaries tests start BIND 9, Knot DNS and NSD fed by the service; bench:dns measures them with dnsperf.
const nameServers = nameServersMissing(['named', 'knotd', 'nsd', 'dnsperf']);
if (nameServers) {
  console.error(`\n✖ ${nameServers}`);
  process.exit(1);
}

// The DNS UPDATE tests run nsupdate and knsupdate, and certbot and lego against pebble.
for (const doorsMissing of [updateToolsMissing(), acmeToolsMissing()]) {
  if (doorsMissing) {
    console.error(`\n✖ ${doorsMissing}`);
    process.exit(1);
  }
}

// The field-judges test runs zonemaster-cli and dnsviz against the name server in a network namespace of its own.
const judges = { '/usr/bin/zonemaster-cli': 'zonemaster-cli', '/usr/bin/dnsviz': 'dnsviz', '/usr/sbin/ip': 'iproute2', '/usr/bin/unshare': 'util-linux' };
const judgesMissing = Object.entries(judges).filter(([path]) => !existsSync(path));
if (judgesMissing.length > 0) {
  console.error(`\n✖ Not found: ${judgesMissing.map(([path]) => path).join(', ')}. Install Debian's ${judgesMissing.map(([, pkg]) => pkg).join(' ')}.`);
  process.exit(1);
}

for (const [label, command] of steps) run(label, command);

const browser = await findBrowser();
if ('error' in browser) {
  console.error(`\n✖ ${browser.error}`);
  process.exit(1);
}
console.log(`\nBrowser for e2e: ${browser.path ?? 'Playwright default'} (${browser.source})`);
/**
 * CI keeps only what this prints: a failed journey's page as Playwright saw it (its accessibility snapshot, written to
 * test-results/<test>/error-context.md) says what was on screen instead of what the journey waited for.
 */
function printFailedPages(dir = process.env.E2E_OUTPUT_DIR ?? 'test-results'): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name, 'error-context.md');
    if (entry.isDirectory() && existsSync(file)) console.error(`\n── ${file}\n${readFileSync(file, 'utf8').slice(0, 12_000)}`);
  }
}
run('Browser journeys', ['npx', 'playwright', 'test'], { ...process.env, ...(browser.path ? { CHROMIUM_PATH: browser.path } : {}) }, printFailedPages);
printTimings();
console.log('\n✔ All checks passed.');
