/**
 * `npm run bench:dns`: queries per second the local service's DNS server answers, measured with dnsperf, against
 * BIND's `named` serving the same zone (taken from the service by AXFR) on this machine. Needs Debian's dnsperf and
 * bind9 (apt-get install -y dnsperf bind9); not part of `npm test`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { startService } from '../server/service.ts';
import { dig } from '../server/test-support/bind.ts';
import { addressOf, TEST_KEYS, testClient } from '../server/test-support/client.ts';

const DNSPERF = process.env.DNSPERF ?? '/usr/bin/dnsperf';
const NAMED = process.env.NAMED ?? '/usr/sbin/named';
const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 10);
for (const [tool, pkg] of [[DNSPERF, 'dnsperf'], [NAMED, 'bind9']]) {
  if (!existsSync(tool)) {
    console.error(`${tool} not found: apt-get install -y ${pkg}`);
    process.exit(1);
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dir = mkdtempSync(join(tmpdir(), 'namefi-bench-dns-'));
const service = await startService(loadConfig({ PORT: '0', DATA_DIR: dir, DNS_PORT: '0', LOG_REQUESTS: 'false', RATE_LIMIT_PER_MINUTE: '1000000' }));
let named: ChildProcess | undefined;
try {
  const zone = 'bench-dns.com';
  const [key] = TEST_KEYS;
  await service.services.ownership.mint({ name: zone, to: addressOf(key), chainId: 31337, years: 1, now: new Date() });
  const client = testClient(service);
  await client.signed(key, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false });
  const records = [
    { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
    { name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 300 },
    { name: 'www', type: 'CNAME', rdata: `${zone}.`, ttl: 300 },
    { name: '*', type: 'A', rdata: '192.0.2.99', ttl: 300 },
    ...Array.from({ length: 200 }, (_, i) => ({ name: `host${i}`, type: 'A', rdata: `198.51.100.${i % 250}`, ttl: 300 })),
    ...Array.from({ length: 50 }, (_, i) => ({ name: `host${i}`, type: 'TXT', rdata: `"record ${i}"`, ttl: 300 })),
  ];
  const created = await client.signed(key, 'batchCreateDnsRecords', { zoneName: zone, records });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const dnsPort = service.dns?.port as number;

  // The same zone for named, as the service transfers it.
  const transfer = (await dig(dnsPort, [zone, 'AXFR'])).split('\n').filter((l) => l && !l.startsWith(';')).join('\n');
  writeFileSync(join(dir, 'zone.db'), `${transfer}\n`);
  const namedPort = await freePort();
  writeFileSync(
    join(dir, 'named.conf'),
    `options { directory "${dir}"; listen-on port ${namedPort} { 127.0.0.1; }; listen-on-v6 { none; }; recursion no; pid-file none; };\n` +
      `zone "${zone}" { type primary; file "zone.db"; };\n`,
  );
  named = spawn(NAMED, ['-g', '-n', '1', '-c', join(dir, 'named.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((ready, fail) => {
    let log = '';
    named?.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('running')) ready();
    });
    named?.once('exit', () => fail(new Error(`named stopped:\n${log}`)));
  });

  // A mix of what resolvers ask: existing names, a CNAME, a wildcard, NXDOMAIN-free by design of the wildcard.
  const queries = [`${zone} A`, `${zone} MX`, `www.${zone} A`, `nothing-here.${zone} A`, ...Array.from({ length: 50 }, (_, i) => `host${i}.${zone} ${i % 2 ? 'TXT' : 'A'}`)];
  writeFileSync(join(dir, 'queries.txt'), `${queries.join('\n')}\n`);

  // Asynchronous: the service answers from this very process, so its event loop must stay free.
  const perf = async (port: number) => {
    const run = await promisify(execFile)(DNSPERF, ['-s', '127.0.0.1', '-p', String(port), '-d', join(dir, 'queries.txt'), '-l', String(SECONDS), '-c', '4', '-q', '100'], { encoding: 'utf8' });
    const qps = Number(/Queries per second:\s+([0-9.]+)/.exec(run.stdout)?.[1]);
    const lost = /Queries lost:\s+([0-9]+)/.exec(run.stdout)?.[1];
    if (!Number.isFinite(qps)) throw new Error(`dnsperf failed:\n${run.stdout}${run.stderr}`);
    return { qps, lost: Number(lost) };
  };
  const ours = await perf(dnsPort);
  const bind = await perf(namedPort);
  console.log(`DNS queries per second over UDP (dnsperf, ${SECONDS} s each, ${records.length} records in the zone, ${queries.length} query names):`);
  console.log(`  local service: ${ours.qps.toFixed(0)} q/s (${ours.lost} lost)`);
  console.log(`  BIND named:    ${bind.qps.toFixed(0)} q/s (${bind.lost} lost)`);
  console.log(`  ratio:         ${(ours.qps / bind.qps).toFixed(3)} (local service / named)`);
} finally {
  named?.kill('SIGTERM');
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
