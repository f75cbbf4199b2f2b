import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS, testClient } from '../../test/support/client.ts';
import { NAME_SERVER_BINARIES } from '../../test/support/name-servers.ts';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

/*
 * Query analytics end to end: known queries sent with dig (UDP, TCP, the DO bit), dnsperf and DNS over HTTPS to two
 * instances sharing one PostgreSQL, and getZoneAnalytics reports exactly those counts; one instance's counts are
 * written when it stops, and no client address is stored.
 */
const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
const ZONE = 'counted.com';
let postgres: PostgresServer;
let one: TestService;
let two: TestService;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'namefi-analytics-'));
  postgres = await startPostgres();
  // A flush every minute at most: the counts reach the database when read, or when an instance stops.
  one = await startTestService({ DATABASE_URL: postgres.url, DNS_PORT: '0', ANALYTICS_FLUSH_MS: '60000' });
  two = await startTestService({ DATABASE_URL: postgres.url, DNS_PORT: '0', ANALYTICS_FLUSH_MS: '60000' });
}, 90_000);
afterAll(async () => {
  await one?.destroy();
  await two?.destroy();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (service: TestService, ...args: string[]) => dig(service.dns?.port as number, ['+norec', ...args]);

async function doh(service: TestService, name: string, type: 'A' | 'TXT') {
  const body = dnsPacket.encode({ type: 'query', id: 7, flags: 0, questions: [{ type, name }] });
  const response = await fetch(`${service.origin}/dns-query`, { method: 'POST', headers: { 'content-type': 'application/dns-message' }, body: new Uint8Array(body) });
  expect(response.status).toBe(200);
}

async function dnsperf(service: TestService, lines: string[]) {
  const file = join(dir, 'queries.txt');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const run = await promisify(execFile)(NAME_SERVER_BINARIES.dnsperf.path, ['-s', '127.0.0.1', '-p', String(service.dns?.port), '-d', file, '-n', '1', '-t', '2'], { encoding: 'utf8' });
  expect(/Queries completed:\s+([0-9]+)/.exec(run.stdout)?.[1]).toBe(String(lines.length));
}

describe('query analytics over two instances', () => {
  it('counts every query by type, answer, transport and DO bit, and names the asked names', async () => {
    await one.services.ownership.mint({ name: ZONE, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
    const client = testClient(one);
    await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false });
    const created = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', {
      zoneName: ZONE,
      records: [
        { name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 60 },
        { name: '@', type: 'TXT', rdata: '"hello"', ttl: 60 },
      ],
    });
    expect(created.status).toBe(200);
    const since = new Date(Date.now() - 60_000).toISOString();

    // Instance one: UDP (repeated questions come from its packet cache and count all the same), TCP, DO.
    for (let i = 0; i < 3; i += 1) expect(await ask(one, `www.${ZONE}`, 'A', '+short')).toContain('192.0.2.10');
    for (let i = 0; i < 2; i += 1) expect(await ask(one, `mial.${ZONE}`, 'A')).toContain('NXDOMAIN');
    expect(await ask(one, `WWW.${ZONE}`, 'AAAA')).toContain('NOERROR');
    expect(await ask(one, `www.${ZONE}`, 'A', '+dnssec')).toContain('192.0.2.10');
    for (let i = 0; i < 2; i += 1) expect(await ask(one, ZONE, 'TXT', '+tcp')).toContain('hello');
    // Another zone's and no zone's queries are not this zone's.
    await ask(one, 'example.org', 'A');
    // Instance two: DoH, dnsperf (UDP), dig.
    await doh(two, `www.${ZONE}`, 'A');
    await dnsperf(two, Array.from({ length: 5 }, () => `www.${ZONE} A`));
    expect(await ask(two, `mial.${ZONE}`, 'A')).toContain('NXDOMAIN');
    // Two's counts are written when it stops; one's when it is read.
    await two.destroy();

    const token = await client.signIn(OWNER_KEY);
    // A read writes the counts one holds; its UDP threads post their cache hits to it every 250 ms, so the last hits
    // may reach it a moment after the read: read until every answer is there.
    const readAll = () => client.call('getZoneAnalytics', { query: { zoneName: ZONE, since, step: '1h' }, headers: client.withToken(token) });
    let read = await readAll();
    await expect
      .poll(async () => {
        read = await readAll();
        return read.status === 200 ? read.body.series.reduce((n: number, p: { total: number }) => n + p.total, 0) : read.status;
      })
      .toBe(16);
    const sum = (pick: (p: (typeof read.body.series)[number]) => Record<string, number>) => {
      const out: Record<string, number> = {};
      for (const point of read.body.series) for (const [k, n] of Object.entries(pick(point))) out[k] = (out[k] ?? 0) + n;
      return out;
    };
    expect(read.body.series.reduce((n: number, p: { total: number }) => n + p.total, 0)).toBe(16);
    expect(sum((p) => p.byType)).toEqual({ A: 13, AAAA: 1, TXT: 2 });
    expect(sum((p) => p.byRcode)).toEqual({ NOERROR: 12, NXDOMAIN: 3, NODATA: 1 });
    expect(sum((p) => p.byTransport)).toEqual({ udp: 13, tcp: 2, doh: 1 });
    expect(read.body.series.reduce((n: number, p: { dnssecOk: number }) => n + p.dnssecOk, 0)).toBe(1);
    expect(read.body.topNames).toEqual([
      { name: 'www', type: 'A', rcode: 'NOERROR', count: 10 },
      { name: 'mial', type: 'A', rcode: 'NXDOMAIN', count: 3 },
      { name: '@', type: 'TXT', rcode: 'NOERROR', count: 2 },
      { name: 'www', type: 'AAAA', rcode: 'NODATA', count: 1 },
    ]);
    // The minute rows say the same as the hour rows they roll up into.
    const minutes = await client.call('getZoneAnalytics', { query: { zoneName: ZONE, since, step: '1m' }, headers: client.withToken(token) });
    expect(minutes.body.series.reduce((n: number, p: { total: number }) => n + p.total, 0)).toBe(16);

    const stored = await one.services.db.query<{ row: string }>('SELECT row_to_json(c)::text AS row FROM dns_query_counts c');
    expect(stored.length).toBeGreaterThan(0);
    for (const { row } of stored) expect(row).not.toMatch(/127\.0\.0\.1|::1/);
  }, 60_000);

  it('is the owner\u2019s to read: 403 for another wallet, 404 for a zone nobody holds, 400 for a window over 31 days', async () => {
    const client = testClient(one);
    const other = await client.signIn(OTHER_KEY);
    expect((await client.call('getZoneAnalytics', { query: { zoneName: ZONE }, headers: client.withToken(other) })).status).toBe(403);
    expect((await client.call('getZoneAnalytics', { query: { zoneName: 'nobody-holds.com' }, headers: client.withToken(other) })).status).toBe(404);
    expect((await client.call('getZoneAnalytics', { query: { zoneName: ZONE } })).status).toBe(401);
    const owner = await client.signIn(OWNER_KEY);
    const tooLong = await client.call('getZoneAnalytics', { query: { zoneName: ZONE, since: '2026-01-01T00:00:00Z', until: '2026-02-02T00:00:00Z' }, headers: client.withToken(owner) });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('31 days');
  });

  it('sums a week a day for every zone the wallet holds, in one answer, for the Domains list', async () => {
    const quiet = 'quiet-zone.com';
    await one.services.ownership.mint({ name: quiet, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
    const client = testClient(one);
    const owner = await client.signIn(OWNER_KEY);
    const week = await client.call('getAnalyticsSummary', { headers: client.withToken(owner) });
    expect(week.status).toBe(200);
    expect(week.body.days).toHaveLength(7);
    // The last day is today (UTC), and each starts a day after the one before.
    const today = new Date();
    expect(week.body.days[6]).toBe(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())).toISOString());
    for (let i = 1; i < 7; i += 1) expect(Date.parse(week.body.days[i]) - Date.parse(week.body.days[i - 1])).toBe(86_400_000);
    const byZone = Object.fromEntries(week.body.zones.map((z: { zoneName: string; daily: number[]; total: number }) => [z.zoneName, z]));
    expect(byZone[ZONE]).toEqual({ zoneName: ZONE, daily: [0, 0, 0, 0, 0, 0, 16], total: 16 });
    expect(byZone[quiet]).toEqual({ zoneName: quiet, daily: [0, 0, 0, 0, 0, 0, 0], total: 0 });
    // Another wallet's summary holds none of them; none without a session; at most 31 days.
    const other = await client.signIn(OTHER_KEY);
    expect((await client.call('getAnalyticsSummary', { headers: client.withToken(other) })).body.zones).toEqual([]);
    expect((await client.call('getAnalyticsSummary', {})).status).toBe(401);
    const month = await client.call('getAnalyticsSummary', { query: { days: 31 }, headers: client.withToken(owner) });
    expect(month.body.days).toHaveLength(31);
    const tooLong = await client.call('getAnalyticsSummary', { query: { days: 32 }, headers: client.withToken(owner) });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('days');
  });
});
