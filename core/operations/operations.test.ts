import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY, typesForMethod, UNSIGNED_BUT_ACCEPTED } from '../eip712/registry.ts';
import { allOperations, operationById, operations, signedOperations, zoneChangingOperations, zoneOf } from './index.ts';

const PUBLISHED = fileURLToPath(new URL('../../test/fixtures/local-types.json', import.meta.url));

/**
 * What clients sign under, as the declarations derive it: a file snapshot this test writes. A new operation updates
 * it with `npx vitest run core/operations/operations.test.ts -u` (its diff is the new operation's types, for review);
 * without `-u`, any other drift fails.
 */
const derived = () =>
  `${JSON.stringify(
    {
      _: 'What clients sign under, as the declarations (core/operations/) derive it: the EIP-712 registry, each operation\u2019s accepted primary types in the order a client tries them, and the fields it takes unsigned. Written by core/operations/operations.test.ts (a file snapshot): a new operation updates it with `npx vitest run core/operations/operations.test.ts -u`; any other change fails that test. Never edited by hand.',
      registry: TYPE_REGISTRY,
      accepted: ACCEPTED_PRIMARY_TYPES,
      unsignedAccepted: UNSIGNED_BUT_ACCEPTED,
    },
    null,
    2,
  )}\n`;

describe('the declarations', () => {
  it('derive the registry, the accepted types and the unsigned fields the service published before', async () => {
    // Each operation's accepted types in the order a client tries them (the table's own order of operations, which
    // groups them by the contract's groups, means nothing to a client).
    await expect(derived()).toMatchFileSnapshot(PUBLISHED);
    const published = JSON.parse(readFileSync(PUBLISHED, 'utf8')) as { registry: typeof TYPE_REGISTRY; accepted: Record<string, string[]> };
    expect(TYPE_REGISTRY).toEqual(published.registry);
    expect(ACCEPTED_PRIMARY_TYPES).toEqual(published.accepted);
    const answer = (registry: typeof TYPE_REGISTRY, accepted: Record<string, string[]>, method: string) => {
      const { availableMethods, ...rest } = typesForMethod(registry, accepted, method) as ReturnType<typeof typesForMethod> & { availableMethods?: string[] };
      return JSON.stringify({ ...rest, ...(availableMethods ? { availableMethods: [...availableMethods].sort() } : {}) });
    };
    for (const method of [...Object.keys(published.accepted), 'getBalance', 'nope']) {
      expect(answer(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, method), method).toBe(answer(published.registry, published.accepted, method));
    }
  });

  it('are keyed by their own id, each path and method once', () => {
    for (const [key, operation] of Object.entries(operations)) expect(operation.id).toBe(key);
    const routes = allOperations().map((o) => `${o.method} ${o.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(operationById('constructor')).toBeUndefined();
  });

  it('give each struct one owner, and accept only envelopes of their own structs', () => {
    const owners = signedOperations().flatMap((o) => Object.keys(o.signed.structs));
    expect(new Set(owners).size).toBe(owners.length);
    for (const o of signedOperations()) {
      for (const type of o.signed.accepted) expect(Object.keys(o.signed.structs), `${o.id} ${type}`).toContain(type.replace(/Envelope$/, ''));
      for (const type of Object.keys(o.signed.unsignedAccepted ?? {})) expect(o.signed.accepted, o.id).toContain(type);
      expect(o.auth, o.id).toBe('write');
    }
  });

  it('say which operations change a zone, each with its history entry described', () => {
    const changing = zoneChangingOperations();
    expect(changing.map((o) => `${o.id}:${o.zone.change}:${o.zone.when ?? 'request'}`).sort()).toEqual([
      'applyDnsChanges:content:request',
      'batchCreateDnsRecords:content:request',
      'batchDeleteDnsRecords:content:request',
      'batchUpdateDnsRecords:content:request',
      'createDnsRecord:content:request',
      'deleteDnsRecord:content:request',
      'grantZoneAccess:history-only:request',
      'parkDomain:content:request',
      'registerDomain:content:order',
      'registerWithRecords:content:order',
      'revokeZoneAccess:history-only:request',
      'setForwarding:content:request',
      'toggleDnssec:content:request',
      'toggleDomainParking:content:request',
      'updateDnsRecord:content:request',
    ]);
    for (const o of allOperations()) expect(o.history !== undefined, o.id).toBe(o.zone !== undefined);
    expect(zoneOf('createDnsRecord', { zoneName: 'a.com', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60 })).toBe('a.com');
    expect(zoneOf('toggleDnssec', { normalizedDomainName: 'b.com', enabled: true })).toBe('b.com');
  });
});
