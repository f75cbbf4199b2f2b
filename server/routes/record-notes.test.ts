import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignTypedDataVersion, TypedDataUtils } from '@metamask/eth-sig-util';
import { bytesToHex, hashTypedData, type Hex } from 'viem';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { verifyHistoryEntry } from '#core/eip712/verify-history-entry.ts';
import { historyEntry, type HistoryEntry } from '#core/wire/history.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

/**
 * A record's comment and tags (issue 36) through the real service: signed with the record by the local structs,
 * stored, listed, kept by an update that does not sign them, refused at the field that breaks a rule, and written
 * in the history as signed.
 */

const [OWNER] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let count = 0;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  token = await client.signIn(OWNER);
});
afterAll(() => service.destroy());

async function zone(): Promise<string> {
  const name = `notes${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
  await service.services.db.query('UPDATE domains SET parked = false WHERE name = $1', [name]);
  return name;
}
const list = async (zoneName: string) => (await client.call('getDnsRecords', { query: { zoneName } })).body as Array<Record<string, any>>;
async function entries(zoneName: string): Promise<HistoryEntry[]> {
  const reply = await client.call('getZoneHistory', { query: { zoneName, limit: 50 }, headers: client.withToken(token) });
  expect(reply.status).toBe(200);
  return reply.body.entries.map((e: unknown) => historyEntry.parse(e));
}
function expectField(reply: { status: number; body: any }, path: string, words: RegExp) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.data.fieldErrors[path]?.join(' '), JSON.stringify(reply.body.data)).toMatch(words);
}

describe('comments and tags on records', () => {
  it('signs, stores and lists them; an update that does not carry them keeps them; one that does changes them', async () => {
    const z = await zone();
    const made = await client.signed(OWNER, 'createDnsRecord', { zoneName: z, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300, comment: 'Web server — Zürich', tags: ['prod', 'team:web'] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ comment: 'Web server — Zürich', tags: ['prod', 'team:web'] });
    expect(made.body.comment).toBe('Web server — Zürich');
    const plain = await client.signed(OWNER, 'createDnsRecord', { zoneName: z, name: 'mail', type: 'A', rdata: '192.0.2.2', ttl: 300 });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ comment: '', tags: [] });

    // Signed without notes (the struct before them): the stored notes stay.
    const moved = await client.signed(OWNER, 'updateDnsRecord', { id: made.body.id, zoneName: z, name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ rdata: '192.0.2.9', comment: 'Web server — Zürich', tags: ['prod', 'team:web'] });
    const retagged = await client.signed(OWNER, 'updateDnsRecord', { id: made.body.id, zoneName: z, name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300, comment: '', tags: ['staging'] });
    expect(retagged.status).toBe(200);
    expect((await list(z)).find((r) => r.id === made.body.id)).toMatchObject({ comment: '', tags: ['staging'] });

    const history = await entries(z);
    const last = history[0];
    expect(last.changes[0].before).toMatchObject({ comment: 'Web server — Zürich', tags: ['prod', 'team:web'] });
    expect(last.changes[0].after).toMatchObject({ comment: '', tags: ['staging'] });
    // Every entry verifies from its own types: the one signed with notes and the ones signed without.
    for (const entry of history) expect(await verifyHistoryEntry(entry), JSON.stringify(entry.signed?.types)).toMatchObject({ status: 'valid' });
    expect(history.at(-1)!.signed!.types.CreateTypedDnsRecord.map((f) => f.name)).toContain('tags');
    expect(history[1].signed!.types.UpdateTypedDnsRecord.map((f) => f.name)).not.toContain('comment');
  });

  it('tags several records and changes their TTL in one batch, one signature, one entry', async () => {
    const z = await zone();
    const created = await client.signed(OWNER, 'batchCreateDnsRecords', {
      zoneName: z,
      records: ['a', 'b', 'c'].map((name, i) => ({ name, type: 'A', rdata: `192.0.2.${i + 1}`, ttl: 3600, comment: `host ${name}`, tags: ['prod'] })),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const records = created.body as Array<Record<string, any>>;
    const changed = await client.signed(OWNER, 'batchUpdateDnsRecords', {
      zoneName: z,
      records: records.map((r) => ({ id: r.id, name: r.name, rdata: r.rdata, ttl: 300, comment: r.comment, tags: [...r.tags, 'cdn'] })),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await list(z)).map((r) => [r.ttl, r.tags])).toEqual(records.map(() => [300, ['prod', 'cdn']]));
    const [entry] = await entries(z);
    expect(entry.changes).toHaveLength(3);
    expect(await verifyHistoryEntry(entry)).toMatchObject({ status: 'valid' });
  });

  it('refuses a 501-character comment, an eleventh tag and a malformed tag at their fields, with the rule in words, and writes nothing', async () => {
    const z = await zone();
    const base = { zoneName: z, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 };
    expectField(await client.signed(OWNER, 'createDnsRecord', { ...base, comment: 'é'.repeat(501), tags: [] }), 'comment', /at most 500 characters; this one has 501/);
    expect((await client.signed(OWNER, 'createDnsRecord', { ...base, comment: 'é'.repeat(500), tags: [] })).status).toBe(200);
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expectField(await client.signed(OWNER, 'createDnsRecord', { ...base, name: 'x', comment: '', tags: eleven }), 'tags', /At most 10 tags/);
    expectField(await client.signed(OWNER, 'createDnsRecord', { ...base, name: 'x', comment: '', tags: ['ok', 'has space'] }), 'tags.1', /name or name:value/);
    expectField(await client.signed(OWNER, 'createDnsRecord', { ...base, name: 'x', comment: '', tags: ['x'.repeat(65)] }), 'tags.0', /at most 64 characters/);
    expectField(await client.signed(OWNER, 'createDnsRecord', { ...base, name: 'x', comment: 'line\nbreak', tags: [] }), 'comment', /control character/);
    const batch = await client.signed(OWNER, 'batchCreateDnsRecords', { zoneName: z, records: [{ name: 'y', type: 'A', rdata: '192.0.2.1', ttl: 300, comment: '', tags: ['env:', 'fine'] }] });
    expectField({ status: batch.status, body: batch.body }, 'records.0.tags.0', /name or name:value/);
    expect((await list(z)).map((r) => r.name)).toEqual(['www']);
  });

  it('signs notes in every record of a batch or in none, and never takes them unsigned', async () => {
    const z = await zone();
    const mixed = await client.signed(OWNER, 'batchCreateDnsRecords', {
      zoneName: z,
      records: [{ name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 60, comment: 'x', tags: [] }, { name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 60 }],
    }, { primaryType: 'CreateRecordsEnvelope' }).catch((e: Error) => e);
    // The client itself cannot sign it (the second record lacks what the struct signs); the service refuses it too.
    expect(mixed).toBeInstanceOf(Error);
    const envelope = buildEnvelope('CreateRecordsEnvelope', { zoneName: z, records: [{ name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 60, comment: 'x', tags: [] }, { name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 60 }] });
    const reply = await client.call('batchCreateDnsRecords', { body: envelope, headers: { [client.headers.signer]: addressOf(OWNER), [client.headers.signature]: `0x${'11'.repeat(65)}`, [client.headers.eip712Type]: 'CreateRecordsEnvelope' } });
    expect(reply.status).toBe(400);
    expect(reply.body.data.rule).toBe('MISSING_SIGNED_FIELD');
    expect(Object.keys(reply.body.data.fieldErrors)).toEqual(['records.1.comment', 'records.1.tags']);
    // The seed's untyped struct signs no notes: carried, they are refused as unsigned.
    const seed = await client.signed(OWNER, 'createDnsRecord', { zoneName: z, name: 'c', type: 'A', rdata: '192.0.2.3', ttl: 60, comment: 'unsigned' }, { primaryType: 'CreateDnsRecordEnvelope' });
    expect(seed.status).toBe(400);
    expect(seed.body.data.rule).toBe('UNSIGNED_FIELD');
    expect(await list(z)).toEqual([]);
  });

  it('MetaMask (eth-sig-util V4) hashes a record with notes, and one without, as the service does', () => {
    const domain = { name: 'Namefi Local', version: '1', chainId: 31337 };
    for (const payload of [
      { zoneName: 'a.com', name: 'www', type: 'TXT', rdata: '"v"', ttl: 60, comment: 'Zürich 🙂 "quoted"', tags: ['prod', 'team:web'] },
      { zoneName: 'a.com', name: 'www', type: 'TXT', rdata: '"v"', ttl: 60 },
    ]) {
      const typed = envelopeTypedData(domain, TYPE_REGISTRY, 'CreateTypedDnsRecordEnvelope', buildEnvelope('CreateTypedDnsRecordEnvelope', payload, { timestamp: 1_800_000_000, nonce: `0x${'ab'.repeat(32)}` }));
      expect(typed.types.CreateTypedDnsRecord.some((f) => f.name === 'comment')).toBe('comment' in payload);
      const json = JSON.parse(JSON.stringify({ ...typed, types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }], ...typed.types } }, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
      const metamask = bytesToHex(TypedDataUtils.eip712Hash(json, SignTypedDataVersion.V4));
      expect(metamask).toBe(hashTypedData(typed as never) as Hex);
    }
  });
});
