import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { continuityProblems } from '#core/history/continuity.ts';
import { verifyHistoryEntry } from '#core/eip712/verify-history-entry.ts';
import type { Hex } from 'viem';
import { isTerminal } from '#core/wire/orders.ts';
import { historyEntry, type HistoryEntry } from '#core/wire/history.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

const [OWNER, OTHER] = TEST_KEYS;
let service: TestService;
let client: TestClient;
const tokens = new Map<Hex, string>();
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

async function session(key: Hex): Promise<Record<string, string>> {
  if (!tokens.has(key)) tokens.set(key, await client.signIn(key));
  return client.withToken(tokens.get(key)!);
}

/** A fresh unparked domain of OWNER, with no history yet. */
async function domain(): Promise<string> {
  const name = `hist${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
  await service.services.db.query('UPDATE domains SET parked = false WHERE name = $1', [name]);
  return name;
}

async function history(zoneName: string, query: Record<string, string | number> = {}, key: Hex = OWNER) {
  return client.call('getZoneHistory', { query: { zoneName, ...query }, headers: await session(key) });
}
async function entries(zoneName: string): Promise<HistoryEntry[]> {
  const reply = await history(zoneName, { limit: 200 });
  expect(reply.status).toBe(200);
  return reply.body.entries.map((e: unknown) => historyEntry.parse(e));
}

describe('zone history', () => {
  it('keeps one entry per signed change, newest first, with before and after, the actor and the envelope as sent', async () => {
    const zoneName = await domain();
    const created = await client.signed(OWNER, 'createDnsRecord', { zoneName, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const sentEnvelope = { nonce: '0xabc1', timestamp: Math.floor(Date.now() / 1000) };
    expect((await client.signed(OWNER, 'updateDnsRecord', { id, zoneName, name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 300 }, sentEnvelope)).status).toBe(200);
    expect((await client.signed(OWNER, 'deleteDnsRecord', { id, zoneName })).status).toBe(200);

    const [deleted, updated, made] = await entries(zoneName);
    expect([made.operation, updated.operation, deleted.operation]).toEqual(['createDnsRecord', 'updateDnsRecord', 'deleteDnsRecord']);
    expect(made.serial).toBeLessThan(updated.serial);
    expect(updated.serial).toBeLessThan(deleted.serial);
    expect(made.changes).toEqual([{ op: 'create', before: null, after: created.body }]);
    expect(updated.changes[0].before).toMatchObject({ id, rdata: '192.0.2.1' });
    expect(updated.changes[0].after).toMatchObject({ id, rdata: '192.0.2.2' });
    expect(deleted.changes).toEqual([{ op: 'delete', before: updated.changes[0].after, after: null }]);
    expect(updated.actor).toEqual({ wallet: addressOf(OWNER).toLowerCase(), account: null, via: 'eip712' });
    expect(updated.signed).toMatchObject({
      primaryType: 'UpdateTypedDnsRecordEnvelope',
      domain: { name: expect.any(String), version: '1' },
      signer: addressOf(OWNER),
      envelope: { payloadType: 'UpdateTypedDnsRecord', payload: { id, zoneName, name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 300 }, ...sentEnvelope },
    });
    expect(Object.keys(updated.signed!.types).sort()).toEqual(['UpdateTypedDnsRecord', 'UpdateTypedDnsRecordEnvelope']);
  });

  it('writes nothing for a refused batch, and one entry for an accepted one', async () => {
    const zoneName = await domain();
    const refused = await client.signed(OWNER, 'batchCreateDnsRecords', {
      zoneName,
      records: [
        { name: 'www', type: 'CNAME', rdata: 'example.net.', ttl: 300 },
        { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 },
      ],
    });
    expect(refused.status).toBe(400);
    expect(await entries(zoneName)).toEqual([]);
    const accepted = await client.signed(OWNER, 'batchCreateDnsRecords', {
      zoneName,
      records: [
        { name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 300 },
        { name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 300 },
      ],
    });
    expect(accepted.status).toBe(200);
    const [entry] = await entries(zoneName);
    expect(entry.changes.map((c) => `${c.op} ${c.after?.name}`)).toEqual(['create a', 'create b']);
  });

  it('records an API key by id, and parking with the records it replaced', async () => {
    const zoneName = await domain();
    const key = await client.call('createApiKey', { body: { label: 'history' }, headers: await session(OWNER) });
    const made = await client.call('createDnsRecord', { body: { zoneName, type: 'A', rdata: '192.0.2.9' }, headers: client.withApiKey(key.body.key) });
    expect(made.status).toBe(200);
    expect((await client.signed(OWNER, 'parkDomain', { normalizedDomainName: zoneName, overrideExistingRecords: true })).status).toBe(200);
    // Parking a parked zone changes nothing, and records nothing.
    expect((await client.signed(OWNER, 'parkDomain', { normalizedDomainName: zoneName, overrideExistingRecords: true })).status).toBe(200);
    const [parked, created] = await entries(zoneName);
    expect(created.actor).toEqual({ wallet: addressOf(OWNER).toLowerCase(), account: null, via: 'api-key', apiKeyId: key.body.id, apiKeyScope: null });
    expect(created.signed).toBeUndefined();
    expect(parked.parking).toEqual({ before: false, after: true });
    expect(parked.changes).toEqual([{ op: 'delete', before: made.body, after: null }]);
  });

  it('records DNSSEC turned on and off as signed entries that verify, and a toggle that changes nothing as none', async () => {
    const zoneName = await domain();
    expect((await client.signed(OWNER, 'toggleDnssec', { normalizedDomainName: zoneName, enabled: true })).status).toBe(200);
    expect((await client.signed(OWNER, 'toggleDnssec', { normalizedDomainName: zoneName, enabled: true })).status).toBe(200);
    expect((await client.signed(OWNER, 'toggleDnssec', { normalizedDomainName: zoneName, enabled: false })).status).toBe(200);
    const [off, on] = await entries(zoneName);
    expect((await entries(zoneName)).length).toBe(2);
    expect([on.operation, on.dnssec, on.changes]).toEqual(['toggleDnssec', { before: false, after: true }, []]);
    expect(off.dnssec).toEqual({ before: true, after: false });
    expect(on.serial).toBeLessThan(off.serial);
    for (const entry of [on, off]) expect(await verifyHistoryEntry(entry)).toMatchObject({ status: 'valid', signer: addressOf(OWNER).toLowerCase() });
    // An entry that claims the opposite of what was signed does not verify.
    expect(await verifyHistoryEntry({ ...on, dnssec: { before: true, after: false } })).not.toMatchObject({ status: 'valid' });
  });

  it('records forwarding with the parking it turned off in one entry, and parking that turned forwarding off', async () => {
    const zoneName = await domain();
    expect((await client.signed(OWNER, 'toggleDomainParking', { normalizedDomainName: zoneName, enableParking: true, overrideExistingRecords: false })).status).toBe(200);
    const setting = { normalizedDomainName: zoneName, enabled: true, targetUrl: 'https://example.net/landing', statusCode: 302 as const, keepPath: true };
    expect((await client.signed(OWNER, 'setForwarding', setting)).status).toBe(200);
    expect((await client.signed(OWNER, 'parkDomain', { normalizedDomainName: zoneName, overrideExistingRecords: false })).status).toBe(200);
    const [parked, forwarded] = await entries(zoneName);
    expect(forwarded.operation).toBe('setForwarding');
    expect(forwarded.parking).toEqual({ before: true, after: false });
    expect(forwarded.forwarding).toEqual({ before: { normalizedDomainName: zoneName, enabled: false, targetUrl: '', statusCode: 301, keepPath: true }, after: setting });
    expect(parked.parking).toEqual({ before: false, after: true });
    expect(parked.forwarding).toEqual({ before: setting, after: { ...setting, enabled: false } });
    for (const entry of [forwarded, parked]) expect(await verifyHistoryEntry(entry)).toMatchObject({ status: 'valid' });
    // An entry claiming another target than the one signed does not verify.
    expect(await verifyHistoryEntry({ ...forwarded, forwarding: { before: forwarded.forwarding!.before, after: { ...setting, targetUrl: 'https://evil.example/' } } })).not.toMatchObject({ status: 'valid' });
  });

  it('gives every forwarding change its own serial, one more than the last: parked → forwarded, new target, status, keepPath, off', async () => {
    const zoneName = await domain();
    const parking = { normalizedDomainName: zoneName, enableParking: true, overrideExistingRecords: false };
    expect((await client.signed(OWNER, 'toggleDomainParking', parking)).status).toBe(200);
    const setting = { normalizedDomainName: zoneName, enabled: true, targetUrl: 'https://example.net/a', statusCode: 302, keepPath: true };
    for (const change of [{}, { targetUrl: 'https://example.net/b' }, { statusCode: 301 }, { keepPath: false }, { enabled: false }]) {
      Object.assign(setting, change);
      expect((await client.signed(OWNER, 'setForwarding', setting)).status).toBe(200);
    }
    const oldestFirst = (await entries(zoneName)).reverse();
    expect(oldestFirst.map((e) => e.operation)).toEqual(['toggleDomainParking', ...Array(5).fill('setForwarding')]);
    const serials = oldestFirst.map((e) => e.serial);
    expect(serials).toEqual(serials.map((_, i) => serials[0] + i));
    const [zone] = await service.services.db.query<{ zone_serial: string }>('SELECT zone_serial FROM domains WHERE name = $1', [zoneName]);
    expect(Number(zone.zone_serial)).toBe(serials.at(-1));
    expect(continuityProblems(oldestFirst)).toEqual([]);
  });

  it('is read by the zone owner only', async () => {
    const zoneName = await domain();
    expect((await history(zoneName, {}, OTHER)).status).toBe(403);
    expect((await client.call('getZoneHistory', { query: { zoneName } })).status).toBe(401);
    expect((await client.call('exportZoneHistory', { query: { zoneName }, headers: await session(OTHER) })).status).toBe(403);
    expect((await history('nobody-owns-this.com')).status).toBe(404);
  });

  it('pages newest first with an opaque cursor, and exports every entry oldest first as NDJSON', async () => {
    const zoneName = await domain();
    for (let i = 1; i <= 5; i += 1) {
      expect((await client.signed(OWNER, 'createDnsRecord', { zoneName, name: `r${i}`, type: 'A', rdata: `192.0.2.${i}`, ttl: 300 })).status).toBe(200);
    }
    const names: string[] = [];
    let before: string | undefined;
    const pageSizes: number[] = [];
    do {
      const reply = await history(zoneName, { limit: 2, ...(before ? { before } : {}) });
      expect(reply.status).toBe(200);
      pageSizes.push(reply.body.entries.length);
      names.push(...reply.body.entries.map((e: HistoryEntry) => e.changes[0].after!.name));
      before = reply.body.next ?? undefined;
    } while (before);
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(names).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
    expect((await history(zoneName, { before: 'not-a-cursor' })).status).toBe(400);
    expect((await history(zoneName, { limit: 201 })).status).toBe(400);

    const exported = await fetch(`${service.baseUrl}/dns/history/export?zoneName=${zoneName}`, { headers: await session(OWNER) });
    expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await exported.text()).trim().split('\n').map((line) => historyEntry.parse(JSON.parse(line)));
    expect(lines.map((e) => e.changes[0].after!.name)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('records the records an order applies when it finishes, as the wallet that ordered', async () => {
    expect((await client.call('requestFaucet', { body: {}, headers: await session(OWNER) })).status).toBe(200);
    const zoneName = 'history-order.com';
    const records = [{ name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 }];
    const created = await client.signed(OWNER, 'registerWithRecords', { normalizedDomainName: zoneName, durationInYears: 1, records });
    expect(created.status).toBe(200);
    await vi.waitFor(
      async () => {
        const reply = await client.call('getOrder', { params: { orderId: created.body.id }, headers: await session(OWNER) });
        if (!isTerminal(reply.body.order.status)) throw new Error(reply.body.order.status);
      },
      { timeout: 10_000, interval: 20 },
    );
    const list = await entries(zoneName);
    const applied = list.find((e) => e.changes.length > 0)!;
    expect(applied.operation).toBe('registerWithRecords');
    expect(applied.actor).toEqual({ wallet: addressOf(OWNER).toLowerCase(), account: null, via: 'order' });
    expect(applied.changes.map((c) => `${c.op} ${c.after?.name} ${c.after?.type} ${c.after?.rdata}`)).toEqual(['create @ A 192.0.2.10']);
  });

  it('exports entries that verify offline, by the verifier script too; an edited line fails it', async () => {
    const zoneName = await domain();
    const made = await client.signed(OWNER, 'batchCreateDnsRecords', {
      zoneName,
      records: [
        { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
        { name: 'mail', type: 'MX', rdata: '10 mx.example.net.', ttl: 300 },
      ],
    });
    const [apex, mail] = made.body;
    expect((await client.signed(OWNER, 'batchUpdateDnsRecords', { zoneName, records: [{ id: mail.id, name: 'mail', rdata: '20 mx.example.net.', ttl: 600 }] })).status).toBe(200);
    expect((await client.signed(OWNER, 'batchDeleteDnsRecords', { zoneName, recordsIds: [apex.id] })).status).toBe(200);
    expect((await client.signed(OWNER, 'toggleDomainParking', { normalizedDomainName: zoneName, enableParking: true, overrideExistingRecords: false })).status).toBe(200);
    for (const entry of await entries(zoneName)) expect(await verifyHistoryEntry(entry)).toMatchObject({ status: 'valid', signer: addressOf(OWNER).toLowerCase() });

    const exported = await fetch(`${service.baseUrl}/dns/history/export?zoneName=${zoneName}`, { headers: await session(OWNER) });
    const text = await exported.text();
    const file = join(service.dataDir, 'history.ndjson');
    await writeFile(file, text);
    const run = (path: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/verify-history.ts', path]).then(
        (r) => ({ code: 0, out: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
      );
    const good = await run(file);
    expect(good.code).toBe(0);
    expect(good.out).toContain('4 entries: 4 verified, 0 failed, 0 need a chain (ERC-1271), 0 unsigned');
    expect(good.out).toContain('✓ continuity');
    // Two entries swapped in the file: every signature still holds, but the entries no longer follow one another.
    const lines = text.trim().split('\n');
    await writeFile(file, [lines[0], lines[2], lines[1], lines[3]].join('\n'));
    const swapped = await run(file);
    expect(swapped.code).toBe(1);
    expect(swapped.out).toContain('4 entries: 4 verified, 0 failed');
    expect(swapped.out).toMatch(/✗ continuity[\s\S]*serial \d+ \(entry \d+\) does not follow serial \d+/);
    await writeFile(file, text.replace('"rdata":"20 mx.example.net."', '"rdata":"30 mx.example.net."'));
    const edited = await run(file);
    expect(edited.code).toBe(1);
    expect(edited.out).toContain('changes do not match the signed payload: record ' + mail.id + ': data 30 mx.example.net. was written, 20 mx.example.net. was signed');
  }, 90_000); // three runs of the verifier script, each a fresh tsx process: seconds each on two busy cores
});
