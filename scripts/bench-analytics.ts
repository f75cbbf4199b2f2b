/**
 * `npm run bench:analytics`: how fast getZoneAnalytics reads a zone with 90 days of counts (ANALYTICS_DAYS), every
 * minute busy (6 types, 4 answers, 3 transports, 50 names a minute), and how much a zone-day of counts stores.
 * Reads 31 days at 1-day, 1-hour and 1-minute steps (the contract's longest window) and a day at 1-minute steps,
 * over HTTP on the local service with PGlite, the median of a few requests each, against budgets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { startService } from '../server/service.ts';
import { addressOf, TEST_KEYS, testClient } from '../test/support/client.ts';

const ZONE = 'bench-analytics.com';
const DAYS = 90;
const RUNS = 5;
const BUDGET_MS: Record<string, number> = { '31 days by day': 100, '31 days by hour': 300, '1 day by minute': 300, '31 days by minute': 5000 };

const dir = await mkdtemp(join(tmpdir(), 'namefi-bench-analytics-'));
const service = await startService(loadConfig({ PORT: '0', DATA_DIR: dir, LOG_REQUESTS: 'false', RATE_LIMIT_PER_MINUTE: '1000000' }));
try {
  const [key] = TEST_KEYS;
  await service.services.ownership.mint({ name: ZONE, to: addressOf(key), chainId: 31337, years: 1, now: new Date() });
  const db = service.services.db;
  const now = Date.now();
  const end = new Date(Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000).toISOString();
  const started = performance.now();
  // Minute rows, then the hour and day rows they roll up into (counts scaled, the same keys), as the counter writes them.
  const names = `(SELECT jsonb_object_agg('host' || i || ' A ' || (CASE WHEN i % 10 = 0 THEN 'NXDOMAIN' ELSE 'NOERROR' END), 1 + i % 7) AS names FROM generate_series(1, 50) i)`;
  for (const [step, interval, scale, count] of [['1m', '1 minute', 1, DAYS * 1440], ['1h', '1 hour', 60, DAYS * 24], ['1d', '1 day', 1440, DAYS]] as const) {
    await db.query(
      `INSERT INTO dns_query_counts (zone_name, step, at, total, by_type, by_rcode, by_transport, dnssec_ok, names, other)
       SELECT $1, $2, $3::timestamptz - ($4::interval * g), 200 * $5,
         jsonb_build_object('A', 120 * $5, 'AAAA', 40 * $5, 'MX', 10 * $5, 'TXT', 15 * $5, 'HTTPS', 10 * $5, 'NS', 5 * $5),
         jsonb_build_object('NOERROR', 150 * $5, 'NODATA', 30 * $5, 'NXDOMAIN', 19 * $5, 'SERVFAIL', 1 * $5),
         jsonb_build_object('udp', 180 * $5, 'tcp', 15 * $5, 'doh', 5 * $5), 20 * $5, n.names, 0
       FROM generate_series(1, $6) g, ${names} n`,
      [ZONE, step, end, interval, scale, count],
    );
  }
  const loadMs = performance.now() - started;
  const [size] = await db.query<{ bytes: string; rows: string }>(`SELECT sum(pg_column_size(c.*))::text AS bytes, count(*)::text AS rows FROM dns_query_counts c WHERE zone_name = $1`, [ZONE]);
  const [table] = await db.query<{ bytes: string }>(`SELECT pg_total_relation_size('dns_query_counts')::text AS bytes`);

  const client = testClient(service);
  const token = await client.signIn(key);
  const until = new Date(Math.floor(now / 60_000) * 60_000 + 60_000);
  const ago = (days: number) => new Date(until.getTime() - days * 86_400_000).toISOString();
  const cases: Array<[string, Record<string, string>]> = [
    ['31 days by day', { since: ago(31), step: '1d' }],
    ['31 days by hour', { since: ago(31), step: '1h' }],
    ['1 day by minute', { since: ago(1), step: '1m' }],
    ['31 days by minute', { since: ago(31), step: '1m' }],
  ];
  console.log(`Query analytics: ${ZONE} with ${DAYS} days of counts (${size.rows} rows, written in ${(loadMs / 1000).toFixed(1)} s), PGlite:`);
  console.log(`  storage: ${(Number(size.bytes) / DAYS / 1024).toFixed(1)} KiB of row data per zone-day (every minute busy, 50 names a minute); the table with its indexes ${(Number(table.bytes) / 1024 / 1024).toFixed(1)} MiB`);
  let over = false;
  for (const [label, query] of cases) {
    const times: number[] = [];
    let bytes = 0;
    let points = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const t = performance.now();
      const res = await fetch(`${service.baseUrl}/dns/analytics?${new URLSearchParams({ zoneName: ZONE, until: until.toISOString(), ...query })}`, { headers: client.withToken(token) });
      const text = await res.text();
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${text.slice(0, 200)}`);
      bytes = text.length;
      points = (JSON.parse(text) as { series: unknown[] }).series.length;
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(RUNS / 2)];
    const ok = median <= BUDGET_MS[label];
    over ||= !ok;
    console.log(`  ${label.padEnd(18)} median ${median.toFixed(0).padStart(5)} ms (budget ${BUDGET_MS[label]} ms${ok ? '' : ', OVER'}), ${points} points, ${(bytes / 1024).toFixed(0)} KiB of JSON`);
  }
  if (over) process.exitCode = 1;
} finally {
  await service.close();
  await rm(dir, { recursive: true, force: true });
}
