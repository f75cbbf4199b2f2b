import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hex } from 'viem';
import { operationById, zoneChangingOperations, type OperationId } from '#core/operations/index.ts';
import { ZONE_SETTINGS, type ZoneChangeFacts } from '#core/wire/history.ts';
import { addressOf, TEST_KEYS, testClient, type Reply, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { renewDueSignatures } from './signature-renewal.ts';
import { flattenAliasCommand } from './alias.ts';
import { changeZone } from './pipeline.ts';
import { serviceAuthor } from '../history/record-change.ts';
import { recordTransfer, type ChainTransfer } from './transfers.ts';

/**
 * Every operation that changes a zone, run through the real service: an accepted change moves the zone's serial by
 * exactly one and appends exactly one history entry naming that serial; a refused one moves nothing and records
 * nothing. The operations come from the operation table, so an operation added later without a case here fails.
 */

const [OWNER, OTHER, HELPER] = TEST_KEYS;
const inAWeek = () => Math.floor(Date.now() / 1000) + 7 * 86400;
let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

interface ZoneState {
  serial: number;
  entries: Array<{ serial: number; operation: string }>;
}

/** What an operation's declaration says its entry may hold; the entry's record changes and settings must be among it. */
function expectEntryAsDeclared(id: OperationId, entry: ZoneChangeFacts) {
  const declared = operationById(id)!.history!;
  expect(entry.changes.filter((c) => !declared.changes.includes(c.op)), `${id}: record changes it declares`).toEqual([]);
  expect(ZONE_SETTINGS.filter((key) => entry[key] !== undefined && !declared[key]), `${id}: settings it declares`).toEqual([]);
}

async function lastEntry(zoneName: string): Promise<ZoneChangeFacts> {
  const [row] = await service.services.db.query<{ entry: string }>('SELECT entry FROM zone_history WHERE zone_name = $1 ORDER BY id DESC LIMIT 1', [zoneName]);
  return JSON.parse(row.entry) as ZoneChangeFacts;
}

async function zoneState(zoneName: string): Promise<ZoneState> {
  const [zone] = await service.services.db.query<{ zone_serial: string }>('SELECT zone_serial FROM domains WHERE name = $1', [zoneName]);
  const entries = await service.services.db.query<{ serial: string; operation: string }>('SELECT serial, operation FROM zone_history WHERE zone_name = $1 ORDER BY id', [zoneName]);
  return { serial: zone ? Number(zone.zone_serial) : 0, entries: entries.map((e) => ({ serial: Number(e.serial), operation: e.operation })) };
}

/**
 * Runs `act` on a zone and checks the pipeline's promise: accepted, one serial step (none for a change that leaves
 * what the zone answers as it was, such as granting access) and one entry (of `operation`, naming the zone's serial
 * after it); refused, neither. Throws (an assertion) when the zone moved otherwise.
 */
async function expectOneStepPerChange(zoneName: string, act: () => Promise<unknown>, outcome: { accepted: boolean; operation: string; movesSerial?: boolean }) {
  const before = await zoneState(zoneName);
  await act();
  const after = await zoneState(zoneName);
  const added = after.entries.slice(before.entries.length);
  if (outcome.accepted) {
    expect(after.serial, `${outcome.operation}: the serial moves once`).toBe(before.serial + (outcome.movesSerial === false ? 0 : 1));
    expect(added, `${outcome.operation}: one history entry, naming the new serial`).toEqual([{ serial: after.serial, operation: outcome.operation }]);
  } else {
    expect(after.serial, `${outcome.operation} refused: the serial stays`).toBe(before.serial);
    expect(added, `${outcome.operation} refused: no history entry`).toEqual([]);
  }
}

async function domain(owner: Hex = OWNER): Promise<string> {
  const name = `pipeline${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
  return name;
}

const signed = (key: Hex, id: OperationId, payload: Record<string, unknown>) => client.signed(key, id, payload);
const ok = (reply: Reply) => expect(reply.status, JSON.stringify(reply.body)).toBe(200);
const refused = (status: number) => (reply: Reply) => expect(reply.status, JSON.stringify(reply.body)).toBe(status);

async function recordIn(zoneName: string, name = 'kept'): Promise<string> {
  const reply = await signed(OWNER, 'createDnsRecord', { zoneName, name, type: 'A', rdata: '192.0.2.9', ttl: 300 });
  ok(reply);
  return reply.body.id;
}

async function waitForOrder(orderId: string) {
  const headers = client.withToken(await client.signIn(OWNER));
  return vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId }, headers });
      if (!['SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED'].includes(reply.body?.order?.status)) throw new Error(`order ${orderId} is ${reply.body?.order?.status}`);
      return reply.body.order.status as string;
    },
    { timeout: 20_000, interval: 25 },
  );
}

/** One accepted and one refused request of an operation, on a zone prepared for it. */
interface Case {
  prepare?: (zoneName: string) => Promise<Record<string, unknown>>;
  accepted: (zoneName: string, prepared: Record<string, unknown>) => Record<string, unknown>;
  /** A refusal from inside the change (a zone rule), when the operation has one; else another wallet signs. */
  refused?: (zoneName: string, prepared: Record<string, unknown>) => { payload: Record<string, unknown>; status: number };
}

const unparked = async (zoneName: string) => {
  ok(await signed(OWNER, 'toggleDomainParking', { normalizedDomainName: zoneName, enableParking: false, overrideExistingRecords: false }));
  return {};
};

/** Zone-changing operations answered at once. Registrations change their zone when the order finishes: see below. */
const cases: Partial<Record<OperationId, Case>> = {
  createDnsRecord: {
    accepted: (zoneName) => ({ zoneName, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }),
    refused: (zoneName) => ({ payload: { zoneName, name: '@', type: 'CNAME', rdata: 'elsewhere.example.', ttl: 300 }, status: 400 }),
  },
  updateDnsRecord: {
    prepare: async (zoneName) => ({ id: await recordIn(zoneName) }),
    accepted: (zoneName, { id }) => ({ id, zoneName, name: 'kept', type: 'A', rdata: '192.0.2.2', ttl: 300 }),
    refused: (zoneName) => ({ payload: { id: '00000000-0000-4000-8000-000000000000', zoneName, name: 'kept', type: 'A', rdata: '192.0.2.2', ttl: 300 }, status: 404 }),
  },
  deleteDnsRecord: {
    prepare: async (zoneName) => ({ id: await recordIn(zoneName) }),
    accepted: (zoneName, { id }) => ({ id, zoneName }),
    refused: (zoneName) => ({ payload: { id: '00000000-0000-4000-8000-000000000000', zoneName }, status: 404 }),
  },
  batchCreateDnsRecords: {
    accepted: (zoneName) => ({ zoneName, records: [{ name: 'a', type: 'A', rdata: '192.0.2.3', ttl: 300 }, { name: 'b', type: 'TXT', rdata: '"b"', ttl: 300 }] }),
    // The second record breaks a rule after the first was weighed: all or nothing.
    refused: (zoneName) => ({ payload: { zoneName, records: [{ name: 'c', type: 'A', rdata: '192.0.2.4', ttl: 300 }, { name: 'c', type: 'CNAME', rdata: 'x.example.', ttl: 300 }] }, status: 400 }),
  },
  batchUpdateDnsRecords: {
    prepare: async (zoneName) => ({ id: await recordIn(zoneName), other: await recordIn(zoneName, 'other') }),
    accepted: (zoneName, { id }) => ({ zoneName, records: [{ id, name: 'kept', rdata: '192.0.2.5', ttl: 600 }] }),
    refused: (zoneName, { id, other }) => ({ payload: { zoneName, records: [{ id, name: 'kept', rdata: '192.0.2.6', ttl: 600 }, { id: other, name: 'kept', rdata: 'not an address', ttl: 600 }] }, status: 400 }),
  },
  batchDeleteDnsRecords: {
    prepare: async (zoneName) => ({ id: await recordIn(zoneName) }),
    accepted: (zoneName, { id }) => ({ zoneName, recordsIds: [id] }),
    refused: (zoneName, { id }) => ({ payload: { zoneName, recordsIds: [id, '00000000-0000-4000-8000-000000000000'] }, status: 404 }),
  },
  applyDnsChanges: {
    prepare: async (zoneName) => ({ id: await recordIn(zoneName), other: await recordIn(zoneName, 'other') }),
    accepted: (zoneName, { id, other }) => ({ zoneName, creates: [{ name: 'mixed', type: 'TXT', rdata: 'made', ttl: 300 }], updates: [{ id, name: 'kept', type: 'AAAA', rdata: '2001:db8::5', ttl: 600 }], deletes: [other] }),
    // The delete and the create are fine; the update breaks a rule: nothing of the three is written.
    refused: (zoneName, { id, other }) => ({ payload: { zoneName, creates: [{ name: 'mixed', type: 'TXT', rdata: 'made', ttl: 300 }], updates: [{ id, name: 'kept', type: 'A', rdata: 'not an address', ttl: 600 }], deletes: [other] }, status: 400 }),
  },
  parkDomain: {
    prepare: unparked,
    accepted: (normalizedDomainName) => ({ normalizedDomainName, overrideExistingRecords: true }),
  },
  toggleDomainParking: {
    accepted: (normalizedDomainName) => ({ normalizedDomainName, enableParking: false, overrideExistingRecords: false }),
  },
  toggleDnssec: {
    accepted: (normalizedDomainName) => ({ normalizedDomainName, enabled: true }),
  },
  grantZoneAccess: {
    accepted: (zoneName) => ({ zoneName, grantee: addressOf(HELPER), role: 'editor', names: ['www'], types: ['A'], expiresAt: inAWeek() }),
  },
  revokeZoneAccess: {
    prepare: async (zoneName) => {
      const granted = await signed(OWNER, 'grantZoneAccess', { zoneName, grantee: addressOf(HELPER), role: 'viewer', names: [], types: [], expiresAt: inAWeek() });
      ok(granted);
      return { grantId: granted.body.id };
    },
    accepted: (zoneName, { grantId }) => ({ zoneName, grantId }),
    refused: (zoneName) => ({ payload: { zoneName, grantId: '00000000-0000-4000-8000-000000000000' }, status: 404 }),
  },
  setForwarding: {
    accepted: (normalizedDomainName) => ({ normalizedDomainName, enabled: true, targetUrl: 'https://example.net/', statusCode: 301, keepPath: true }),
    refused: (normalizedDomainName) => ({ payload: { normalizedDomainName, enabled: true, targetUrl: `https://${normalizedDomainName}/loop`, statusCode: 301, keepPath: true }, status: 400 }),
  },
};

/**
 * Registrations: their zone is made and changed by the order's worker when the order finishes. A zone is born parked
 * (no change); initial records with an apex address unpark it (one change) and are written (another).
 */
const registrations: Partial<Record<OperationId, { payload: (normalizedDomainName: string) => Record<string, unknown>; changes: number }>> = {
  registerDomain: { payload: (normalizedDomainName) => ({ normalizedDomainName, durationInYears: 1 }), changes: 0 },
  registerWithRecords: { payload: (normalizedDomainName) => ({ normalizedDomainName, durationInYears: 1, records: [{ name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 }] }), changes: 2 },
};

/** The operations that change a zone, as the operation table declares them (`zone`). */
const zoneChanging = zoneChangingOperations();

describe('the zone-change pipeline: one serial step and one history entry per accepted change, none for a refused one', () => {
  it('every zone-changing operation of the table has a case here', () => {
    expect(zoneChanging.length).toBeGreaterThanOrEqual(12);
    const ordered = zoneChanging.filter((op) => op.zone.when === 'order').map((op) => op.id);
    const direct = zoneChanging.filter((op) => op.zone.when !== 'order').map((op) => op.id);
    expect(direct.filter((id) => !cases[id])).toEqual([]);
    expect(ordered.filter((id) => !registrations[id])).toEqual([]);
  });

  for (const { id, zone } of zoneChanging.filter((op) => cases[op.id])) {
    const c = cases[id]!;
    const movesSerial = zone.change === 'content';
    it(id, async () => {
      const zoneName = await domain();
      const prepared = (await c.prepare?.(zoneName)) ?? {};
      const refusal = c.refused?.(zoneName, prepared);
      // A refusal first, so that the zone it is refused in is the one the accepted change then finds.
      await expectOneStepPerChange(zoneName, async () => refused(refusal ? refusal.status : 403)(await signed(refusal ? OWNER : OTHER, id, refusal?.payload ?? c.accepted(zoneName, prepared))), {
        accepted: false,
        operation: id,
      });
      await expectOneStepPerChange(zoneName, async () => ok(await signed(OWNER, id, c.accepted(zoneName, prepared))), { accepted: true, operation: id, movesSerial });
      expectEntryAsDeclared(id, await lastEntry(zoneName));
    });
  }

  for (const id of Object.keys(registrations) as OperationId[]) {
    it(`${id} (its order's changes)`, async () => {
      const headers = client.withToken(await client.signIn(OWNER));
      ok(await client.call('requestFaucet', { body: {}, headers }));
      const zoneName = `pipeline-order${++count}.com`;
      const { payload, changes } = registrations[id]!;
      const created = await signed(OWNER, id, payload(zoneName));
      ok(created);
      expect(await waitForOrder(created.body.id)).toBe('SUCCEEDED');
      // A new zone starts at serial 1: each change the order made is one step with its entry.
      const state = await zoneState(zoneName);
      expect(state).toEqual({ serial: 1 + changes, entries: Array.from({ length: changes }, (_, i) => ({ serial: 2 + i, operation: id })) });
      const entries = await service.services.db.query<{ entry: string }>('SELECT entry FROM zone_history WHERE zone_name = $1', [zoneName]);
      for (const { entry } of entries) expectEntryAsDeclared(id, JSON.parse(entry) as ZoneChangeFacts);

      const failed = await signed(OWNER, id, payload(`fail-pipeline${++count}.com`));
      ok(failed);
      expect(await waitForOrder(failed.body.id)).toBe('FAILED');
      expect(await zoneState(`fail-pipeline${count}.com`)).toEqual({ serial: 0, entries: [] });
    });
  }

  it("the service's own change (a DNSSEC signature renewal) is one step with an entry saying why; a renewal not due is none", async () => {
    const zoneName = await domain();
    ok(await signed(OWNER, 'toggleDnssec', { normalizedDomainName: zoneName, enabled: true }));
    await expectOneStepPerChange(zoneName, () => renewDueSignatures(service.services, new Date()), { accepted: false, operation: 'renewDnssecSignatures' });
    await expectOneStepPerChange(zoneName, () => renewDueSignatures(service.services, new Date(Date.now() + 12 * 86400_000)), { accepted: true, operation: 'renewDnssecSignatures' });
    const history = await client.call('getZoneHistory', { query: { zoneName }, headers: client.withToken(await client.signIn(OWNER)) });
    expect(history.body.entries[0].actor).toEqual({ wallet: '', account: null, via: 'service', reason: 'DNSSEC signatures renewed before they lapse' });
    expect(history.body.entries[0].dnssec).toEqual({ before: true, after: true });
  });

  it("the service's ALIAS flattening is one step with an entry of the addresses; the same addresses again are none", async () => {
    const zoneName = await domain();
    // A target nobody resolves here (no DNS_RESOLVER): the refresher leaves it alone, so only the change below writes.
    ok(await signed(OWNER, 'createDnsRecord', { zoneName, type: 'ALIAS', name: 'shop', rdata: 'app.example.net.', ttl: 300 }));
    const resolved = new Map([['shop', { target: 'app.example.net.', addresses: [{ type: 'A' as const, rdata: '192.0.2.5' }] }]]);
    const flatten = () => changeZone(service.services, { zoneName, by: { author: serviceAuthor('flattenAlias', 'test') }, command: flattenAliasCommand(resolved) });
    await expectOneStepPerChange(zoneName, flatten, { accepted: true, operation: 'flattenAlias' });
    expect((await lastEntry(zoneName)).changes.map((c) => `${c.op} ${c.after?.type} ${c.after?.rdata}`)).toEqual(['create A 192.0.2.5']);
    await expectOneStepPerChange(zoneName, flatten, { accepted: false, operation: 'flattenAlias' });
    const history = await client.call('getZoneHistory', { query: { zoneName }, headers: client.withToken(await client.signIn(OWNER)) });
    expect(history.body.entries[0].actor).toEqual({ wallet: '', account: null, via: 'service', reason: 'test' });
  });

  it("a transfer read from the chain is one entry and no serial step (the zone answers as before), recorded once however often it is read", async () => {
    const zoneName = await domain();
    const recordId = await recordIn(zoneName);
    ok(await signed(OWNER, 'setAutoRenew', { normalizedDomainName: zoneName, enabled: true, durationInYears: 2 }));
    const [from, to] = [addressOf(OWNER).toLowerCase(), addressOf(OTHER).toLowerCase()];
    const transfer: ChainTransfer = { chainId: 31337, zoneName, from, to, sender: from, txHash: `0x${'ab'.repeat(32)}`, logIndex: 0, blockNumber: 42 };
    await expectOneStepPerChange(zoneName, () => recordTransfer(service.services, transfer), { accepted: true, operation: 'transfer', movesSerial: false });
    // The same log again (a second instance, a follower reading the block twice): nothing.
    await expectOneStepPerChange(zoneName, () => recordTransfer(service.services, transfer), { accepted: false, operation: 'transfer' });

    const history = await client.call('getZoneHistory', { query: { zoneName }, headers: client.withToken(await client.signIn(OTHER)) });
    expect(history.status, 'the new holder reads the history').toBe(200);
    expect(history.body.entries[0]).toMatchObject({ operation: 'transfer', actor: { wallet: from, account: null, via: 'chain' }, changes: [], transfer: { from, to, txHash: transfer.txHash, blockNumber: 42 } });
    // Records stay; auto-renew is off for the new holder and in the table.
    const records = await client.call('getDnsRecords', { query: { zoneName } });
    expect(records.body.map((r: { id: string }) => r.id)).toContain(recordId);
    const [row] = await service.services.db.query<{ enabled: boolean }>('SELECT enabled FROM auto_renew WHERE domain_name = $1', [zoneName]);
    expect(row.enabled).toBe(false);
    // The database registry follows: the old holder is refused, the new one edits.
    refused(403)(await signed(OWNER, 'createDnsRecord', { zoneName, name: 'old', type: 'A', rdata: '192.0.2.1', ttl: 300 }));
    ok(await signed(OTHER, 'createDnsRecord', { zoneName, name: 'new', type: 'A', rdata: '192.0.2.2', ttl: 300 }));
  });
});

describe('a change that goes around the pipeline fails the check', () => {
  it('records written without the pipeline: no serial step, no entry, and the check says so', async () => {
    const zoneName = await domain();
    const bypass = () =>
      service.services.db.query("INSERT INTO dns_records (id, zone_name, name, type, ttl, rdata) VALUES (gen_random_uuid(), $1, 'around', 'A', 300, '192.0.2.77')", [zoneName]);
    await expect(expectOneStepPerChange(zoneName, bypass, { accepted: true, operation: 'createDnsRecord' })).rejects.toThrow(/the serial moves once/);
  });

  it('a serial moved by hand, even with a history entry written beside it, is refused by the database', async () => {
    const zoneName = await domain();
    const bypass = () =>
      service.services.db.transaction(async (tx) => {
        await tx.query('UPDATE domains SET zone_version = gen_random_uuid() WHERE name = $1', [zoneName]);
        await tx.query("INSERT INTO zone_history (zone_name, serial, at, operation, entry) SELECT name, zone_serial, now(), 'createDnsRecord', '{}' FROM domains WHERE name = $1", [zoneName]);
      });
    await expect(expectOneStepPerChange(zoneName, bypass, { accepted: true, operation: 'createDnsRecord' })).rejects.toThrow(/changed outside the zone-change pipeline/);
    expect(await zoneState(zoneName)).toEqual({ serial: 1, entries: [] });
  });
});
