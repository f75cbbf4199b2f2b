import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { recordTransfer } from '../zones/transfers.ts';

/**
 * No sequence of grant, revoke, transfer, expiry and write lets a wallet or a key change anything outside a live
 * grant or scope (contract: Access), against the real service. Each step's outcome is compared with a model written
 * here on its own (not the service's scope functions): a write the model refuses must be refused and move nothing; a
 * write it allows must be taken. Sized for a few seconds: ACCESS_PROPERTY_RUNS scales it.
 */

const [OWNER, OTHER, HELPER] = TEST_KEYS;
const RUNS = Number(process.env.ACCESS_PROPERTY_RUNS ?? 12);
/**
 * The run's seed, printed; ACCESS_PROPERTY_SEED replays one. Fixed by default: twelve random sequences sometimes
 * allow no grantee write at all, and the check that some were allowed and some refused would then fail by chance.
 */
const SEED = Number(process.env.ACCESS_PROPERTY_SEED ?? 1);
let service: TestService;
let client: TestClient;
let zones = 0;
let tx = 0;
let rdataCount = 0;
/** Writes taken and refused, so a run that only ever refused (or only took) shows. */
const seen = { taken: 0, refused: 0 };

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

const ROLES = ['viewer', 'editor', 'manager'] as const;
const NAMES = ['www', '*.app', '@', 'mail'] as const;
const RECORD_NAMES = ['www', 'a.app', 'app', '@', 'mail', 'x.www'] as const;
const TYPES = ['A', 'TXT'] as const;

/** The model's own reading of the contract's names: a name covers itself, `*.x` every name strictly below x. */
function covers(names: readonly string[], types: readonly string[], record: { name: string; type: string }): boolean {
  const nameOk = names.length === 0 || names.some((n) => (n.startsWith('*.') ? record.name.endsWith(`.${n.slice(2)}`) : n === record.name));
  return nameOk && (types.length === 0 || types.includes(record.type));
}

type Action =
  | { kind: 'grant'; role: (typeof ROLES)[number]; names: string[]; types: string[] }
  | { kind: 'revoke' }
  | { kind: 'giveUp' }
  | { kind: 'expire' }
  | { kind: 'transferAway' }
  | { kind: 'transferBack' }
  | { kind: 'write'; name: string; type: string }
  | { kind: 'delete'; pick: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('grant' as const), role: fc.constantFrom(...ROLES), names: fc.subarray([...NAMES]), types: fc.subarray([...TYPES]) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'revoke' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'giveUp' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'transferAway' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'transferBack' as const }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...RECORD_NAMES), type: fc.constantFrom(...TYPES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
);

interface Model {
  ownerHolds: boolean;
  grant: { id: string; role: string; names: string[]; types: string[]; live: boolean } | null;
}

const rdataOf = (type: string) => (type === 'A' ? `192.0.2.${(++rdataCount % 250) + 1}` : `"t${++rdataCount}"`);
const serialOf = async (zoneName: string) => Number((await service.services.db.query<{ zone_serial: string }>('SELECT zone_serial FROM domains WHERE name = $1', [zoneName]))[0].zone_serial);
const recordsOf = async (zoneName: string) => service.services.db.query<{ id: string; name: string; type: string }>('SELECT id, name, type FROM dns_records WHERE zone_name = $1 ORDER BY id', [zoneName]);

/** A zone of the owner's, unparked (a parked zone's apex address is the parking page's, whoever writes). */
async function freshZone(prefix: string): Promise<string> {
  const zoneName = `${prefix}${++zones}.com`;
  await service.services.ownership.mint({ name: zoneName, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER, 'toggleDomainParking', { normalizedDomainName: zoneName, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  return zoneName;
}

async function transfer(zoneName: string, from: string, to: string) {
  await recordTransfer(service.services, { chainId: 31337, zoneName, from, to, sender: from, txHash: `0x${(++tx).toString(16).padStart(64, '0')}`, logIndex: 0, blockNumber: tx });
}

/** Runs one action and checks it against the model; answers the model after it. */
async function step(zoneName: string, model: Model, a: Action): Promise<void> {
  const owner = addressOf(OWNER).toLowerCase();
  const other = addressOf(OTHER).toLowerCase();
  const live = model.grant?.live ? model.grant : null;
  switch (a.kind) {
    case 'grant': {
      const reply = await client.signed(OWNER, 'grantZoneAccess', { zoneName, grantee: addressOf(HELPER), role: a.role, names: a.names, types: a.types, expiresAt: Math.floor(Date.now() / 1000) + 86400 });
      const expected = !model.ownerHolds ? 403 : live ? 409 : 200;
      expect(reply.status, `grant ${JSON.stringify(reply.body)}`).toBe(expected);
      if (reply.status === 200) model.grant = { id: reply.body.id, role: a.role, names: a.names, types: a.types, live: true };
      return;
    }
    case 'revoke':
    case 'giveUp': {
      if (!model.grant) return;
      const reply = await client.signed(a.kind === 'revoke' ? OWNER : HELPER, 'revokeZoneAccess', { zoneName, grantId: model.grant.id });
      // The owner revokes while they hold the domain; the grantee may always give up their own grant.
      const expected = a.kind === 'revoke' && !model.ownerHolds ? 403 : 200;
      expect(reply.status, `${a.kind} ${JSON.stringify(reply.body)}`).toBe(expected);
      if (reply.status === 200) model.grant.live = false;
      return;
    }
    case 'expire':
      if (live) await service.services.db.query("UPDATE zone_grants SET expires_at = now() - interval '1 second' WHERE id = $1", [live.id]);
      if (model.grant) model.grant.live = false;
      return;
    case 'transferAway':
      if (!model.ownerHolds) return;
      await transfer(zoneName, owner, other);
      model.ownerHolds = false;
      if (model.grant) model.grant.live = false;
      return;
    case 'transferBack':
      if (model.ownerHolds) return;
      await transfer(zoneName, other, owner);
      model.ownerHolds = true;
      return;
    case 'write':
    case 'delete': {
      const records = await recordsOf(zoneName);
      const target = a.kind === 'write' ? { name: a.name, type: a.type } : records[a.pick % Math.max(records.length, 1)];
      if (!target) return;
      const allowed = model.ownerHolds && live !== null && live.role !== 'viewer' && covers(live.names, live.types, target);
      const before = await serialOf(zoneName);
      const reply =
        a.kind === 'write'
          ? await client.signed(HELPER, 'createDnsRecord', { zoneName, name: a.name, type: a.type, rdata: rdataOf(a.type), ttl: 300 })
          : await client.signed(HELPER, 'deleteDnsRecord', { zoneName, id: (target as { id: string }).id });
      expect(reply.status, `${a.kind} ${target.type} at ${target.name} with ${JSON.stringify(model)}: ${JSON.stringify(reply.body)}`).toBe(allowed ? 200 : 403);
      expect(await serialOf(zoneName)).toBe(allowed ? before + 1 : before);
      seen[allowed ? 'taken' : 'refused'] += 1;
      return;
    }
  }
}

describe('access: no sequence lets a wallet or a key change anything outside a live grant or scope', () => {
  it('grants: grant, revoke, give up, expire, transfer away and back, write and delete', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 10 }), async (actions) => {
        const zoneName = await freshZone('prop');
        // Records of the owner's that a grantee's delete may aim at.
        for (const [name, type] of [['www', 'A'], ['mail', 'TXT'], ['a.app', 'TXT']]) {
          expect((await client.signed(OWNER, 'createDnsRecord', { zoneName, name, type, rdata: rdataOf(type), ttl: 300 })).status).toBe(200);
        }
        const model: Model = { ownerHolds: true, grant: null };
        for (const a of actions) await step(zoneName, model, a);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.taken, 'some grantee writes were allowed').toBeGreaterThan(0);
    expect(seen.refused, 'some grantee writes were refused').toBeGreaterThan(0);
  }, 240_000);

  it('scoped keys: a key writes only within its zones, names, types and access, and only while its wallet owns the zone', async () => {
    const headers = client.withToken(await client.signIn(OWNER));
    const scopeArb = fc.record({
      inZone: fc.boolean(),
      names: fc.subarray([...NAMES]),
      types: fc.subarray([...TYPES]),
      access: fc.constantFrom('read', 'write'),
    });
    const writes = fc.array(fc.record({ name: fc.constantFrom(...RECORD_NAMES), type: fc.constantFrom(...TYPES), away: fc.boolean() }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(scopeArb, writes, async (s, steps) => {
        const zoneName = await freshZone('propkey');
        const scope = { zones: s.inZone ? [zoneName] : ['elsewhere.com'], names: s.names, types: s.types, access: s.access, expiresAt: null, cidrs: [] };
        const created = await client.call('createApiKey', { body: { label: 'prop', scope }, headers });
        expect(created.status).toBe(200);
        let ownerHolds = true;
        const [owner, other] = [addressOf(OWNER).toLowerCase(), addressOf(OTHER).toLowerCase()];
        for (const w of steps) {
          if (w.away === ownerHolds) {
            await transfer(zoneName, ownerHolds ? owner : other, ownerHolds ? other : owner);
            ownerHolds = !ownerHolds;
          }
          const allowed = ownerHolds && s.inZone && s.access === 'write' && covers(s.names, s.types, w);
          const before = await serialOf(zoneName);
          const reply = await client.call('createDnsRecord', { body: { zoneName, name: w.name, type: w.type, rdata: rdataOf(w.type), ttl: 300 }, headers: client.withApiKey(created.body.key) });
          expect(reply.status, `${w.type} at ${w.name}, scope ${JSON.stringify(scope)}, owner holds: ${ownerHolds}: ${JSON.stringify(reply.body)}`).toBe(allowed ? 200 : 403);
          expect(await serialOf(zoneName)).toBe(allowed ? before + 1 : before);
          seen[allowed ? 'taken' : 'refused'] += 1;
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 240_000);
});
