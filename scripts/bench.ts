import { spawnSync } from 'node:child_process';

/** `npm run bench`: every benchmark in turn; each prints its own figures against its budget. */
const benches = ['bench:service', 'bench:service-start', 'bench:bundle', 'bench:page', 'bench:records', 'bench:requests', 'bench:dns', 'bench:dnssec', 'bench:history', 'bench:bulk', 'bench:analytics', 'bench:update', 'bench:zones'];
const failed: string[] = [];
for (const name of benches) {
  console.log(`\n━━ npm run ${name}`);
  const result = spawnSync('npm', ['run', '--silent', name], { stdio: 'inherit' });
  if (result.status !== 0) failed.push(name);
}
if (failed.length) {
  console.error(`\nThese benchmarks could not run: ${failed.join(', ')}`);
  process.exit(1);
}
