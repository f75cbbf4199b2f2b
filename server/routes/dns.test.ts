import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { parkingRecords } from '#core/dns/parking.ts';
import { checkZoneChange } from '#core/dns/zone-rules.ts';
import { loadConfig } from '../config.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import type { OperationId } from '#core/operations/index.ts';
import { verifyHistoryEntry } from '#core/eip712/verify-history-entry.ts';

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
const OWNER = addressOf(OWNER_KEY);

let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

/** A fresh domain owned by `owner`, unparked unless asked. */
async function zone(options: { parked?: boolean; owner?: Hex } = {}): Promise<string> {
  const owner = options.owner ?? OWNER_KEY;
  const name = `zone${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
  if (!options.parked) {
    const unpark = await client.signed(owner, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false });
    expect(unpark.status).toBe(200);
  }
  return name;
}
/** A signed write; a creation the test leaves name or ttl out of is sent as the record form sends it, with its defaults signed. */
const sign = (id: OperationId, payload: Record<string, unknown>, key: Hex = OWNER_KEY) =>
  client.signed(key, id, id === 'createDnsRecord' ? { name: '@', ttl: 3600, ...payload } : payload);
const list = async (zoneName: string) => (await client.call('getDnsRecords', { query: { zoneName } })).body as Array<Record<string, any>>;
async function create(zoneName: string, record: Record<string, unknown>) {
  const reply = await sign('createDnsRecord', { zoneName, ...record });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as Record<string, any>;
}
function expectRule(reply: { status: number; body: any }, rule: string, path: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.code).toBe('BAD_REQUEST');
  expect(reply.body.data.rule).toBe(rule);
  expect(Object.keys(reply.body.data.fieldErrors)).toContain(path);
}

describe('single records', () => {
  it('creates with the defaults (API key: nothing is signed) and answers the stored form, which the zone lists', async () => {
    const z = await zone();
    const unsigned = await client.call('createDnsRecord', { body: { zoneName: z, type: 'A', rdata: '192.0.2.1' }, headers: await apiKeyHeaders() });
    expect(unsigned.status).toBe(200);
    const record = unsigned.body;
    expect(record).toMatchObject({ zoneName: z, name: '@', type: 'A', class: 'IN', ttl: 3600, rdata: '192.0.2.1', metadata: null });
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    const cname = await create(z, { type: 'CNAME', name: 'WWW', rdata: 'Target.Example.NET', ttl: 300 });
    expect(cname).toMatchObject({ name: 'www', rdata: 'target.example.net.', ttl: 300 });
    expect(await list(z)).toEqual([record, cname]);
  });

  it('reads a zone publicly in both query forms, and 404 for a domain nobody owns', async () => {
    const z = await zone();
    const record = await create(z, { type: 'TXT', name: 'hello', rdata: 'unquoted text' });
    expect(record.rdata).toBe('"unquoted text"');
    const seedForm = await client.call('getDnsRecords', { query: { payloadType: 'ZoneSelect', 'payload[zoneName]': z } });
    expect(seedForm).toMatchObject({ status: 200, body: [record] });
    const unknown = await client.call('getDnsRecords', { query: { zoneName: 'nobody-owns.com' } });
    expect(unknown.status).toBe(404);
    expect((await client.call('getDnsRecords', { query: { zoneName: 'Not A Zone' } })).status).toBe(400);
  });

  it('puts bad record data and names on their field', async () => {
    const z = await zone();
    const data = await sign('createDnsRecord', { zoneName: z, type: 'A', name: 'www', rdata: '300.1.1.1' });
    expect(data.status).toBe(400);
    expect(Object.keys(data.body.data.fieldErrors)).toEqual(['rdata']);
    const name = await sign('createDnsRecord', { zoneName: z, type: 'A', name: 'bad name', rdata: '192.0.2.1' });
    expect(Object.keys(name.body.data.fieldErrors)).toEqual(['name']);
    // A negative TTL cannot even be signed as a uint256: the service refuses it before looking at the signature.
    const ttl = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: z, type: 'A', name: 'www', rdata: '192.0.2.1', ttl: 5 }, { tamper: (e) => ({ ...e, payload: { ...e.payload, ttl: -5 } }) });
    expect(ttl.status).toBe(400);
    expect(ttl.body.data.fieldErrors.ttl).toBeDefined();
    expect(await list(z)).toEqual([]);
  });

  it('answers 403 naming the owner to another wallet, and 404 for a domain nobody owns', async () => {
    const z = await zone();
    const other = await sign('createDnsRecord', { zoneName: z, type: 'A', name: 'www', rdata: '192.0.2.1' }, OTHER_KEY);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ code: 'FORBIDDEN', message: `The wallet ${addressOf(OTHER_KEY).toLowerCase()} does not own ${z}`, data: { domain: z, owner: OWNER.toLowerCase() } });
    const nobody = await sign('createDnsRecord', { zoneName: 'unregistered.com', type: 'A', name: 'www', rdata: '192.0.2.1' });
    expect(nobody.status).toBe(404);
  });

  it('updates by merging onto the stored record and re-validating', async () => {
    const z = await zone();
    const record = await create(z, { type: 'A', name: 'www', rdata: '192.0.2.1', ttl: 300 });
    const ttlOnly = await client.call('updateDnsRecord', { body: { id: record.id, zoneName: z, ttl: 600 }, headers: await apiKeyHeaders() });
    expect(ttlOnly.status).toBe(200);
    expect(ttlOnly.body).toMatchObject({ id: record.id, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 600, createdAt: record.createdAt });
    const retyped = await sign('updateDnsRecord', { id: record.id, zoneName: z, type: 'AAAA', name: 'www', rdata: '2001:DB8:0:0:0:0:0:1', ttl: 600 });
    expect(retyped.body).toMatchObject({ type: 'AAAA', rdata: '2001:db8::1' });
    const bad = await client.call('updateDnsRecord', { body: { id: record.id, zoneName: z, rdata: '192.0.2.1' }, headers: await apiKeyHeaders() });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.fieldErrors)).toEqual(['rdata']);
    const negative = await client.signed(OWNER_KEY, 'updateDnsRecord', { id: record.id, zoneName: z, type: 'AAAA', name: 'www', rdata: '2001:db8::1', ttl: 1 }, { tamper: (e) => ({ ...e, payload: { ...e.payload, ttl: -1 } }) });
    expect(negative.status).toBe(400);
    expect((await list(z))[0]).toMatchObject({ type: 'AAAA', rdata: '2001:db8::1', ttl: 600 });
  });

  it('answers 404 for an unknown id, an id of another zone, and a malformed id', async () => {
    const z = await zone();
    const elsewhere = await zone();
    const foreign = await create(elsewhere, { type: 'TXT', name: 'x', rdata: '"x"' });
    for (const id of ['3f1b8a52-0000-4000-8000-000000000000', foreign.id, 'nope']) {
      const update = await sign('updateDnsRecord', { id, zoneName: z, name: 'x', type: 'TXT', rdata: '"x"', ttl: 60 });
      expect(update.status).toBe(404);
      const remove = await sign('deleteDnsRecord', { id, zoneName: z });
      expect(remove.status).toBe(404);
    }
    expect(await list(elsewhere)).toEqual([foreign]);
  });

  it('checks the input before ownership, as the contract orders', async () => {
    const z = await zone();
    const reply = await sign('createDnsRecord', { zoneName: z, type: 'A', name: 'www', rdata: 'not-an-ip' }, OTHER_KEY);
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.body.data.fieldErrors)).toEqual(['rdata']);
  });

  it('checks ownership before record ids', async () => {
    const z = await zone();
    const reply = await sign('deleteDnsRecord', { id: '3f1b8a52-0000-4000-8000-000000000000', zoneName: z }, OTHER_KEY);
    expect(reply.status).toBe(403);
  });

  it('deletes a record', async () => {
    const z = await zone();
    const keep = await create(z, { type: 'TXT', name: 'keep', rdata: '"k"' });
    const gone = await create(z, { type: 'TXT', name: 'gone', rdata: '"g"' });
    expect((await sign('deleteDnsRecord', { id: gone.id, zoneName: z })).body).toEqual({ success: true });
    expect(await list(z)).toEqual([keep]);
  });
});

let apiKey: string | undefined;
async function apiKeyHeaders() {
  if (!apiKey) {
    const token = await client.signIn(OWNER_KEY);
    apiKey = (await client.call('createApiKey', { body: { label: 'dns tests' }, headers: client.withToken(token) })).body.key;
  }
  return client.withApiKey(apiKey!);
}

describe('zone rules over HTTP', () => {
  it('DNS_DUPLICATE', async () => {
    const z = await zone();
    await create(z, { type: 'MX', name: '@', rdata: '10 mail.example.com.' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'MX', name: '@', rdata: '10 MAIL.example.com' }), 'DNS_DUPLICATE', 'rdata');
  });

  it('DNS_CNAME_CONFLICT both ways', async () => {
    const z = await zone();
    await create(z, { type: 'A', name: 'www', rdata: '192.0.2.1' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'CNAME', name: 'www', rdata: 'a.example.com.' }), 'DNS_CNAME_CONFLICT', 'name');
    await create(z, { type: 'CNAME', name: 'blog', rdata: 'a.example.com.' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'TXT', name: 'blog', rdata: '"x"' }), 'DNS_CNAME_CONFLICT', 'name');
  });

  it('DNS_CNAME_AT_APEX', async () => {
    const z = await zone();
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'CNAME', name: '@', rdata: 'a.example.com.' }), 'DNS_CNAME_AT_APEX', 'name');
  });

  it('DNS_APEX_NS_SOA', async () => {
    const z = await zone();
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'NS', name: '@', rdata: 'ns1.example.net.' }), 'DNS_APEX_NS_SOA', 'name');
    const soa = await sign('createDnsRecord', { zoneName: z, type: 'SOA', name: '@', rdata: 'ns1.example.net. admin.example.net. 1 7200 3600 1209600 3600' });
    expect(soa.status).toBe(400);
    expect(soa.body.data.rule).toBe('DNS_APEX_NS_SOA');
  });

  it('DNS_NS_EXCLUSIVE both ways', async () => {
    const z = await zone();
    await create(z, { type: 'A', name: 'dev', rdata: '192.0.2.1' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'NS', name: 'dev', rdata: 'ns1.example.net.' }), 'DNS_NS_EXCLUSIVE', 'name');
    await create(z, { type: 'NS', name: 'lab', rdata: 'ns1.example.net.' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'TXT', name: 'lab', rdata: '"x"' }), 'DNS_NS_EXCLUSIVE', 'name');
    await create(z, { type: 'DS', name: 'lab', rdata: '12345 13 2 ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789' });
  });

  it('DNS_BELOW_DELEGATION both ways', async () => {
    const z = await zone();
    await create(z, { type: 'NS', name: 'dev', rdata: 'ns1.example.net.' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'A', name: 'api.dev', rdata: '192.0.2.1' }), 'DNS_BELOW_DELEGATION', 'name');
    await create(z, { type: 'A', name: 'x.y.lab', rdata: '192.0.2.1' });
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'NS', name: 'lab', rdata: 'ns1.example.net.' }), 'DNS_BELOW_DELEGATION', 'name');
  });

  it('DNS_NAME_TOO_LONG', async () => {
    const z = await zone();
    const name = Array.from({ length: 4 }, () => 'a'.repeat(62)).join('.');
    expect(name.length).toBeLessThanOrEqual(255);
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'TXT', name, rdata: '"x"' }), 'DNS_NAME_TOO_LONG', 'name');
  });

  it('DNS_PARKING_CONFLICT and DNS_MANAGED_RECORD on a parked zone', async () => {
    const z = await zone({ parked: true });
    const records = await list(z);
    expect(records.map((r) => [r.type, r.rdata, r.ttl, r.metadata])).toEqual(
      parkingRecords(z).map((r) => [r.type, r.rdata, 60, { managed: true, managedBy: 'parking' }]),
    );
    expectRule(await sign('createDnsRecord', { zoneName: z, type: 'A', name: '@', rdata: '192.0.2.1' }), 'DNS_PARKING_CONFLICT', 'name');
    // Other names are free while parked.
    await create(z, { type: 'A', name: 'www', rdata: '192.0.2.1' });
    const managed = records[0];
    expectRule(await sign('updateDnsRecord', { id: managed.id, zoneName: z, name: managed.name, type: managed.type, rdata: managed.rdata, ttl: 300 }), 'DNS_MANAGED_RECORD', 'id');
    const refusal = await sign('deleteDnsRecord', { id: managed.id, zoneName: z });
    expectRule(refusal, 'DNS_MANAGED_RECORD', 'id');
    // The service refuses it in the words the record form uses: the rule and its message are written once, in core.
    const { id, name, type, rdata, ttl } = managed;
    const inForm = checkZoneChange({ zoneName: z, existing: [{ id, name, type, rdata, ttl, managed: true }], change: { creates: [], updates: [], deletes: [id] }, parked: true });
    expect(refusal.body.message).toBe(inForm[0]?.message);
    expectRule(await sign('batchDeleteDnsRecords', { zoneName: z, recordsIds: [managed.id] }), 'DNS_MANAGED_RECORD', 'recordsIds.0');
    expect((await list(z)).length).toBe(5);
  });
});

describe('batches: all or nothing', () => {
  it('creates in order and answers the stored records', async () => {
    const z = await zone();
    const records = [
      { name: '@', type: 'MX', rdata: '10 mx1.example.com', ttl: 3600 },
      { name: '@', type: 'MX', rdata: '20 mx2.example.com.', ttl: 3600 },
      { name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none"', ttl: 300 },
    ];
    const reply = await sign('batchCreateDnsRecords', { zoneName: z, records });
    expect(reply.status).toBe(200);
    expect(reply.body.map((r: any) => r.rdata)).toEqual(['10 mx1.example.com.', '20 mx2.example.com.', '"v=DMARC1; p=none"']);
    expect(await list(z)).toEqual(reply.body);
  });

  it('writes nothing when the last record is bad, naming its path', async () => {
    const z = await zone();
    const records = [
      { name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 60 },
      { name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 60 },
      { name: 'c', type: 'A', rdata: 'not an address', ttl: 60 },
    ];
    const reply = await sign('batchCreateDnsRecords', { zoneName: z, records });
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.body.data.fieldErrors)).toEqual(['records.2.rdata']);
    expect(await list(z)).toEqual([]);
  });

  it('writes nothing when the last record breaks a zone rule (a duplicate inside the batch)', async () => {
    const z = await zone();
    const records = [
      { name: 'a', type: 'TXT', rdata: '"same"', ttl: 60 },
      { name: 'a', type: 'TXT', rdata: 'same', ttl: 60 },
    ];
    expectRule(await sign('batchCreateDnsRecords', { zoneName: z, records }), 'DNS_DUPLICATE', 'records.1.rdata');
    expect(await list(z)).toEqual([]);
  });

  it('updates several records, or none when one is bad or unknown', async () => {
    const z = await zone();
    const a = await create(z, { type: 'A', name: 'a', rdata: '192.0.2.1', ttl: 60 });
    const b = await create(z, { type: 'A', name: 'b', rdata: '192.0.2.2', ttl: 60 });
    const ok = await sign('batchUpdateDnsRecords', { zoneName: z, records: [{ id: a.id, name: 'a', rdata: '192.0.2.10', ttl: 120 }, { id: b.id, name: 'b2', rdata: '192.0.2.2', ttl: 60 }] });
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: any) => [r.name, r.rdata, r.ttl])).toEqual([['a', '192.0.2.10', 120], ['b2', '192.0.2.2', 60]]);
    const before = await list(z);
    const bad = await sign('batchUpdateDnsRecords', { zoneName: z, records: [{ id: a.id, name: 'a', rdata: '192.0.2.11', ttl: 60 }, { id: b.id, name: 'b2', rdata: 'nope', ttl: 60 }] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.fieldErrors)).toEqual(['records.1.rdata']);
    const unknown = await sign('batchUpdateDnsRecords', { zoneName: z, records: [{ id: a.id, name: 'a', rdata: '192.0.2.12', ttl: 60 }, { id: '3f1b8a52-0000-4000-8000-000000000000', name: 'x', rdata: '192.0.2.1', ttl: 60 }] });
    expect(unknown.status).toBe(404);
    expect(await list(z)).toEqual(before);
  });

  it('refuses a batch that changes one record twice', async () => {
    const z = await zone();
    const a = await create(z, { type: 'A', name: 'a', rdata: '192.0.2.1', ttl: 60 });
    const twice = await sign('batchUpdateDnsRecords', { zoneName: z, records: [{ id: a.id, name: 'a', rdata: '192.0.2.2', ttl: 60 }, { id: a.id, name: 'a', rdata: '192.0.2.3', ttl: 60 }] });
    expect(twice.status).toBe(400);
    expect(Object.keys(twice.body.data.fieldErrors)).toEqual(['records.1.id']);
    expect(await list(z)).toEqual([a]);
  });

  it('deletes several records, or none when one id is not in the zone', async () => {
    const z = await zone();
    const elsewhere = await zone();
    const foreign = await create(elsewhere, { type: 'TXT', name: 'f', rdata: '"f"' });
    const a = await create(z, { type: 'TXT', name: 'a', rdata: '"a"' });
    const b = await create(z, { type: 'TXT', name: 'b', rdata: '"b"' });
    const c = await create(z, { type: 'TXT', name: 'c', rdata: '"c"' });
    const refused = await sign('batchDeleteDnsRecords', { zoneName: z, recordsIds: [a.id, foreign.id] });
    expect(refused.status).toBe(404);
    expect((await list(z)).length).toBe(3);
    expect((await sign('batchDeleteDnsRecords', { zoneName: z, recordsIds: [a.id, b.id] })).body).toEqual({ success: true });
    expect(await list(z)).toEqual([c]);
    expect(await list(elsewhere)).toEqual([foreign]);
  });
});

describe('a change set applied as one (applyDnsChanges)', () => {
  const headOf = async (zoneName: string) => {
    const history = await client.call('getZoneHistory', { query: { zoneName, limit: 1 }, headers: client.withToken(await client.signIn(OWNER_KEY)) });
    return history.body.entries[0];
  };

  it('deletes, changes (a type too) and adds under one signature: one serial step, one entry that verifies', async () => {
    const z = await zone();
    const gone = await create(z, { type: 'TXT', name: 'old', rdata: '"old"' });
    const moved = await create(z, { type: 'A', name: 'app', rdata: '192.0.2.1', ttl: 300 });
    const before = await headOf(z);
    const reply = await sign('applyDnsChanges', {
      zoneName: z,
      creates: [{ name: 'new', type: 'TXT', rdata: '"new"', ttl: 300 }],
      updates: [{ id: moved.id, name: 'app', type: 'CNAME', rdata: 'platform.example.net.', ttl: 600 }],
      deletes: [gone.id],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.deleted).toEqual([gone.id]);
    expect(reply.body.updated).toMatchObject([{ id: moved.id, type: 'CNAME', rdata: 'platform.example.net.', ttl: 600 }]);
    expect(reply.body.created).toMatchObject([{ name: 'new', type: 'TXT', rdata: '"new"' }]);
    expect((await list(z)).map((r) => `${r.type} ${r.name}`).sort()).toEqual(['CNAME app', 'TXT new']);
    const entry = await headOf(z);
    expect(entry.serial).toBe(before.serial + 1);
    expect(entry.operation).toBe('applyDnsChanges');
    expect(entry.changes.map((c: { op: string }) => c.op).sort()).toEqual(['create', 'delete', 'update']);
    expect(await verifyHistoryEntry(entry)).toMatchObject({ status: 'valid', signer: OWNER.toLowerCase() });
  });

  it('writes nothing when one part is refused, naming its place in the change set', async () => {
    const z = await zone();
    const kept = await create(z, { type: 'TXT', name: 'kept', rdata: '"kept"' });
    const www = await create(z, { type: 'A', name: 'www', rdata: '192.0.2.2' });
    const before = await list(z);
    const head = await headOf(z);
    // The delete and the update are fine; the create meets a CNAME where an A stays: the whole set is refused.
    const conflict = await sign('applyDnsChanges', {
      zoneName: z,
      creates: [{ name: 'www', type: 'CNAME', rdata: 'elsewhere.example.', ttl: 300 }],
      updates: [{ id: www.id, name: 'www', type: 'A', rdata: '192.0.2.3', ttl: 300 }],
      deletes: [kept.id],
    });
    expectRule(conflict, 'DNS_CNAME_CONFLICT', 'creates.0.name');
    const badData = await sign('applyDnsChanges', { zoneName: z, creates: [], updates: [{ id: www.id, name: 'www', type: 'A', rdata: 'not an address', ttl: 300 }], deletes: [kept.id] });
    expect(badData.status).toBe(400);
    expect(Object.keys(badData.body.data.fieldErrors)).toEqual(['updates.0.rdata']);
    const unknown = await sign('applyDnsChanges', { zoneName: z, creates: [], updates: [], deletes: [kept.id, '00000000-0000-4000-8000-000000000000'] });
    expect(unknown.status).toBe(404);
    const empty = await sign('applyDnsChanges', { zoneName: z, creates: [], updates: [], deletes: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.data.fieldErrors.creates).toEqual(['Name at least one change: a record to create, update or delete']);
    expect(await list(z)).toEqual(before);
    expect((await headOf(z)).serial).toBe(head.serial);
  });
});

describe('zone size', () => {
  it('holds at most ZONE_RECORD_LIMIT records (100,000 unless configured)', async () => {
    expect(loadConfig({}).ZONE_RECORD_LIMIT).toBe(100_000);
    // A small limit, so filling the zone takes two batches rather than a hundred.
    const small = await startTestService({ ZONE_RECORD_LIMIT: '1500' });
    try {
      const smallClient = testClient(small);
      const z = 'full.com';
      await small.services.ownership.mint({ name: z, to: OWNER, chainId: 31337, years: 1, now: new Date() });
      expect((await smallClient.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: z, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
      for (const [from, count] of [[0, 1000], [1000, 500]]) {
        const records = Array.from({ length: count }, (_, i) => ({ name: `h${from + i}`, type: 'A', rdata: '192.0.2.1', ttl: 60 }));
        expect((await smallClient.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: z, records })).status).toBe(200);
      }
      const full = await smallClient.call('getDnsRecords', { query: { zoneName: z } });
      expect(full.body.length).toBe(1500);
      const reply = await smallClient.signed(OWNER_KEY, 'createDnsRecord', { zoneName: z, type: 'A', name: 'one-more', rdata: '192.0.2.1', ttl: 300 });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(/at most 1,500 records/);
      // A change that adds as many as it removes still fits.
      const swap = await smallClient.signed(OWNER_KEY, 'updateDnsRecord', { id: full.body[0].id, zoneName: z, name: 'renamed', rdata: '192.0.2.9', ttl: 60 });
      expect(swap.status).toBe(200);
    } finally {
      await small.destroy();
    }
  });
});
