import { describe, expect, it } from 'vitest';
import { allOperations, factsChangedByOperation, factsOfOrderFinished, factsOfZoneMoved } from './index.ts';

describe('what each write changes (derived from the declarations)', () => {
  it('every write of the table says what it changes, and names the domain it changes when it changes one', () => {
    const writes = allOperations().filter((op) => op.method !== 'GET' || op.changes !== undefined);
    expect(writes.length).toBeGreaterThan(15);
    for (const op of writes) {
      const facts = factsChangedByOperation(op.id);
      expect(facts.domain.length + facts.account.length, `${op.id} changes nothing a client shows?`).toBeGreaterThan(0);
      if (facts.domain.length > 0) expect(facts.of, `${op.id} changes a domain's facts but names no domain`).toBeTypeOf('function');
    }
  });

  it('a zone content change reaches its records, answers, history and the domain list; a setting only when its history says so', () => {
    expect(factsChangedByOperation('createDnsRecord')).toMatchObject({ domain: ['records', 'answers', 'history'], account: ['domains'] });
    expect(factsChangedByOperation('toggleDnssec').domain).toContain('settings');
    expect(factsChangedByOperation('toggleDomainParking').domain).toContain('settings');
    expect(factsChangedByOperation('grantZoneAccess')).toMatchObject({ domain: ['history', 'access'], account: ['domains'] });
    expect(factsChangedByOperation('registerDomain')).toMatchObject({ domain: ['registration'], account: ['orders'] });
    expect(factsChangedByOperation('setAutoRenew')).toMatchObject({ domain: ['settings'], account: ['domains'] });
  });

  it('a zone moved elsewhere and a finished order change the union their operations declare', () => {
    expect(new Set(factsOfZoneMoved().domain)).toEqual(new Set(['records', 'answers', 'history', 'settings']));
    expect(factsOfOrderFinished().account).toEqual(expect.arrayContaining(['domains', 'balance', 'orders']));
    expect(factsOfOrderFinished().domain).toEqual(expect.arrayContaining(['records', 'registration']));
  });
});
