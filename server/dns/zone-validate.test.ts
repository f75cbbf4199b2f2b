import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import type { OperationId } from '#core/operations/index.ts';
import { checkRecords } from './zone-validate.ts';

// Counts how often a request runs core's record rules. The real rules run: these only count the calls, so the
// service answers exactly as it does without them.
const calls = vi.hoisted(() => ({ name: 0, rdata: 0 }));
vi.mock('#core/dns/names.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#core/dns/names.ts')>();
  return { ...real, validateRecordName: (...args: Parameters<typeof real.validateRecordName>) => (calls.name++, real.validateRecordName(...args)) };
});
vi.mock('#core/dns/rdata.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#core/dns/rdata.ts')>();
  return { ...real, validateRdata: (...args: Parameters<typeof real.validateRdata>) => (calls.rdata++, real.validateRdata(...args)) };
});

const [OWNER_KEY, OTHER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let zones = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

async function zone(): Promise<string> {
  const name = `once${++zones}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  const unpark = await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false });
  expect(unpark.status).toBe(200);
  return name;
}

/** One signed request, and how many times it ran the name and data rules. */
async function counted(id: OperationId, payload: Record<string, unknown>, key: Hex = OWNER_KEY) {
  calls.name = 0;
  calls.rdata = 0;
  const reply = await client.signed(key, id, payload);
  return { status: reply.status, body: reply.body as any, checks: { ...calls } };
}

describe('each record field is checked once per request', () => {
  it('a create, a batch create and an update run the name and data rules once for each record as it will stand', async () => {
    const z = await zone();
    const created = await counted('createDnsRecord', { zoneName: z, name: 'WWW', type: 'A', rdata: '192.0.2.1', ttl: 300 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ name: 'www', rdata: '192.0.2.1' });
    expect(created.checks).toEqual({ name: 1, rdata: 1 });

    const records = ['a', 'b', 'c'].map((name) => ({ name, type: 'TXT', rdata: `text ${name}`, ttl: 60 }));
    const batch = await counted('batchCreateDnsRecords', { zoneName: z, records });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.map((r: { rdata: string }) => r.rdata)).toEqual(['"text a"', '"text b"', '"text c"']);
    expect(batch.checks).toEqual({ name: 3, rdata: 3 });

    // Named in full: checked before ownership, never again.
    const full = await counted('updateDnsRecord', { id: created.body.id, zoneName: z, name: 'Mail', type: 'AAAA', rdata: '2001:DB8::1', ttl: 600 });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body).toMatchObject({ name: 'mail', type: 'AAAA', rdata: '2001:db8::1' });
    expect(full.checks).toEqual({ name: 1, rdata: 1 });

    // Changing only the TTL, sent with the stored name and data (all the seed's struct signs; the type stays stored), checked once.
    const ttlOnly = await counted('updateDnsRecord', { id: created.body.id, zoneName: z, name: 'mail', rdata: '2001:db8::1', ttl: 60 });
    expect(ttlOnly.status, JSON.stringify(ttlOnly.body)).toBe(200);
    expect(ttlOnly.body).toMatchObject({ name: 'mail', type: 'AAAA', rdata: '2001:db8::1', ttl: 60 });
    expect(ttlOnly.checks).toEqual({ name: 1, rdata: 1 });

    // Data under the stored type: checked once, inside the transaction, where the type is known.
    const dataOnly = await counted('updateDnsRecord', { id: created.body.id, zoneName: z, name: 'mail', rdata: '192.0.2.9', ttl: 60 });
    expect(dataOnly.status).toBe(400);
    expect(Object.keys(dataOnly.body.data.fieldErrors)).toEqual(['rdata']);
    expect(dataOnly.checks).toEqual({ name: 1, rdata: 1 });
  });

  it('bad data is refused before ownership, having been checked once', async () => {
    const z = await zone();
    const refused = await counted('createDnsRecord', { zoneName: z, name: '@', type: 'A', rdata: '300.0.0.1', ttl: 300 }, OTHER_KEY);
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.data.fieldErrors)).toEqual(['rdata']);
    expect(refused.checks).toEqual({ name: 1, rdata: 1 });
  });
});

describe('checkRecords', () => {
  it('answers new records in their stored forms, with the defaults', () => {
    const change = checkRecords('example.com', { creates: [{ type: 'CNAME', name: 'WWW', rdata: 'Target.Example.NET' }, { type: 'TXT', rdata: 'hi' }] });
    expect(change.creates).toEqual([
      { name: 'www', type: 'CNAME', rdata: 'target.example.net.', ttl: 3600, comment: '', tags: [] },
      { name: '@', type: 'TXT', rdata: '"hi"', ttl: 3600, comment: '', tags: [] },
    ]);
  });

  it('refuses with every problem at its path, batch or single', () => {
    const request = { creates: [{ type: 'A' as const, rdata: '192.0.2.1' }, { type: 'A' as const, name: 'bad name', rdata: 'nope' }] };
    expect(() => checkRecords('example.com', request)).toThrow(expect.objectContaining({ kind: 'invalid', data: expect.objectContaining({ fieldErrors: { 'records.1.name': [expect.any(String)], 'records.1.rdata': [expect.any(String)] } }) }));
    expect(() => checkRecords('example.com', { updates: [{ id: 'x', type: 'A', rdata: 'nope' }] }, '')).toThrow(
      expect.objectContaining({ kind: 'invalid', data: expect.objectContaining({ fieldErrors: { rdata: [expect.any(String)] } }) }),
    );
  });
});
