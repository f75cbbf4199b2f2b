/**
 * Prototype for issue 37 (not part of any suite): one worker thread answering a fixed answer through batched
 * syscalls (udp-batch.cjs), under dnsperf as `npm run bench:dns` runs it, beside BIND 9 `named -n 1`.
 * Run: node --import tsx test/bench/udp-batch-echo.bench.ts
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { NAME_SERVER_BINARIES, startNamed } from '../support/name-servers.ts';
import { freePort } from '../support/ports.ts';

const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'mmsg-echo-'));
const zone = 'bench-dns.com';
writeFileSync(join(dir, 'queries.txt'), `${zone} A\nwww.${zone} A\nhost1.${zone} A\n`);
async function perf(port: number) {
  const run = await promisify(execFile)(NAME_SERVER_BINARIES.dnsperf.path, ['-s', '127.0.0.1', '-p', String(port), '-d', join(dir, 'queries.txt'), '-l', String(SECONDS), '-c', '4', '-q', '100', '-t', '1'], { encoding: 'utf8' });
  return Number(/Queries per second:\s+([0-9.]+)/.exec(run.stdout)?.[1]);
}
const binding = (process as unknown as { binding(n: string): { UDP: new () => { bind(a: string, p: number, f: number): number; fd: number; close(): void } } }).binding('udp_wrap');
const handle = new binding.UDP();
const port = await freePort();
if (handle.bind('127.0.0.1', port, 0) !== 0) throw new Error('bind');
const stop = new SharedArrayBuffer(4);
const worker = new Worker(fileURLToPath(new URL('./udp-batch-echo-worker.cjs', import.meta.url)), { workerData: { fd: handle.fd, stop } });
const echo = await perf(port);
Atomics.store(new Int32Array(stop), 0, 1);
await new Promise((done) => worker.once('message', done));
handle.close();
writeFileSync(join(dir, 'zone.db'), `$TTL 300\n@ SOA ns1 host 1 3600 600 1209600 60\n@ NS ns1\nns1 A 192.0.2.1\n@ A 192.0.2.1\nwww CNAME @\nhost1 A 192.0.2.2\n`);
const namedPort = await freePort();
const named = await startNamed(join(dir, 'named'), namedPort, `zone "${zone}" { type primary; file "${join(dir, 'zone.db')}"; };`, zone);
const bind = await perf(namedPort);
await named.stop();
console.log(`batched echo (1 worker): ${echo.toFixed(0)} q/s; BIND named -n 1: ${bind.toFixed(0)} q/s; ratio ${(echo / bind).toFixed(3)}`);
