/**
 * npm run bench:history — a zone's history at 100,000 entries, on the local service with a fresh database
 * (PGlite, or PostgreSQL at DATABASE_URL): the size of an entry for each kind of write, then 100,000 entries
 * inserted directly (beside another zone's 100,000), and the time of GET /dns/history pages at the newest end,
 * in the middle and at the oldest end, and of the whole NDJSON export. A keyset page is one index range scan:
 * its time should not depend on how deep the page is.
 */
import { breathe } from '../server/dnssec/sign-in-worker.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../server/config.ts';
import { encodeCursor } from '../server/history/history-read.ts';
import { startService } from '../server/service.ts';
import { testClient, TEST_KEYS } from '../test/support/client.ts';

const ENTRIES = 100_000;
const PAGE_REQUESTS = 50;
const ZONE = 'history-bench.com';
const OTHER = 'history-other.com';

const ms = (n: number) => `${n.toFixed(1)} ms`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const dir = await mkdtemp(join(tmpdir(), 'namefi-bench-history-'));
const service = await startService(
  loadConfig({ PORT: '0', DATA_DIR: dir, LOG_REQUESTS: 'false', RATE_LIMIT_PER_MINUTE: '10000000', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) }),
);
const key = TEST_KEYS[0];
const owner = privateKeyToAccount(key).address;
const client = testClient(service);
const db = service.services.db;
let exitCode = 0;

async function entrySize(): Promise<string> {
  return (await db.query<{ entry: string }>('SELECT entry FROM zone_history WHERE zone_name = $1 ORDER BY id DESC LIMIT 1', [ZONE]))[0].entry;
}

try {
  console.log(`Service on ${service.baseUrl} (${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'PGlite in a fresh temp dir'})`);
  for (const name of [ZONE, OTHER]) await service.services.ownership.mint({ name, to: owner, chainId: 31337, years: 1, now: new Date() });
  await client.signed(key, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false });

  // The size of a stored entry (the row's JSON text; the wire adds id, zone, serial, time and operation).
  const sizes: Array<[string, number]> = [];
  const made = await client.signed(key, 'createDnsRecord', { zoneName: ZONE, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 });
  sizes.push(['signed create of one record', (await entrySize()).length]);
  await client.signed(key, 'updateDnsRecord', { id: made.body.id, zoneName: ZONE, name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 300 });
  const updateEntry = await entrySize();
  sizes.push(['signed update of one record', updateEntry.length]);
  await client.signed(key, 'deleteDnsRecord', { id: made.body.id, zoneName: ZONE });
  sizes.push(['signed delete of one record', (await entrySize()).length]);
  const records = Array.from({ length: 100 }, (_, i) => ({ name: `host-${i}`, type: 'A', rdata: `10.0.0.${i}`, ttl: 300 }));
  await client.signed(key, 'batchCreateDnsRecords', { zoneName: ZONE, records });
  const batch = (await entrySize()).length;
  sizes.push(['signed batch of 100 creates', batch]);
  console.log('Entry size (stored JSON):');
  for (const [what, bytes] of sizes) console.log(`  ${what}: ${bytes.toLocaleString('en-US')} bytes`);
  console.log(`  (a batch costs ${(batch / 100).toFixed(0)} bytes a record)`);

  // 100,000 entries for the zone, and as many for another zone, inserted directly: updates like the one above.
  const fill = performance.now();
  // In slices with a turn of the event loop between: PGlite runs on it, and one 7-second statement let the service's
  // idle keep-alive sockets time out under the client's next request (ECONNRESET).
  const SLICE = 10_000;
  for (const name of [OTHER, ZONE]) {
    for (let from = 1; from <= ENTRIES; from += SLICE) {
      await db.query(
        `INSERT INTO zone_history (zone_name, serial, at, operation, entry)
         SELECT $1, g, now() - make_interval(secs => $3 - g), 'updateDnsRecord', $2 FROM generate_series($4::int, $5::int) AS g`,
        [name, updateEntry, ENTRIES, from, Math.min(ENTRIES, from + SLICE - 1)],
      );
      await breathe();
    }
  }
  const [{ count }] = await db.query<{ count: string }>('SELECT count(*) FROM zone_history WHERE zone_name = $1', [ZONE]);
  console.log(`Inserted ${(2 * ENTRIES).toLocaleString('en-US')} entries in ${((performance.now() - fill) / 1000).toFixed(1)} s; ${ZONE} has ${Number(count).toLocaleString('en-US')}`);

  const headers = client.withToken(await client.signIn(key));
  const ids = await db.query<{ id: string }>('SELECT id FROM zone_history WHERE zone_name = $1 ORDER BY id', [ZONE]);
  const cursors: Array<[string, string | undefined]> = [
    ['newest page (no cursor)', undefined],
    ['middle page', encodeCursor(ids[Math.floor(ids.length / 2)].id)],
    ['oldest page', encodeCursor(ids[60].id)],
  ];
  console.log(`GET /dns/history, limit 50, ${PAGE_REQUESTS} requests each, one at a time:`);
  for (const [what, before] of cursors) {
    const url = `${service.baseUrl}/dns/history?zoneName=${ZONE}&limit=50${before ? `&before=${before}` : ''}`;
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < PAGE_REQUESTS; i++) {
      const t = performance.now();
      const response = await fetch(url, { headers });
      const text = await response.text();
      samples.push(performance.now() - t);
      if (response.status !== 200) throw new Error(`${what}: ${response.status} ${text.slice(0, 200)}`);
      bytes = text.length;
    }
    const sorted = samples.sort((a, b) => a - b);
    console.log(`  ${what}: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))} (${(bytes / 1024).toFixed(0)} KiB)`);
  }

  const t = performance.now();
  const exported = await fetch(`${service.baseUrl}/dns/history/export?zoneName=${ZONE}`, { headers });
  const text = await exported.text();
  const lines = text.split('\n').filter(Boolean).length;
  console.log(`GET /dns/history/export: ${lines.toLocaleString('en-US')} entries, ${(text.length / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - t) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error('Bench failed:', error);
  exitCode = 1;
} finally {
  await service.close();
  await rm(dir, { recursive: true, force: true });
}
process.exit(exitCode);
