import { describe, expect, it } from 'vitest';
import { managedByOf, isManaged } from '../wire/dns.ts';
import { managedRecordsOf, managedWords, MANAGED_WORDS } from './managed.ts';

describe('the managed marker, read in one place', () => {
  it('answers who manages a record, and null for a record someone wrote', () => {
    expect(managedByOf({ metadata: { managed: true, managedBy: 'parking' } })).toBe('parking');
    expect(managedByOf({ metadata: { managed: true, managedBy: 'forwarding' } })).toBe('forwarding');
    expect(managedByOf({ metadata: { managed: true, managedBy: 'mail' } })).toBe('mail');
    expect(isManaged({ metadata: { managed: true, managedBy: 'mail' } })).toBe(true);
    for (const metadata of [null, undefined, 'managed', { managed: 'true' }, { managed: false, managedBy: 'parking' }]) {
      expect(managedByOf({ metadata })).toBeNull();
      expect(isManaged({ metadata })).toBe(false);
    }
  });

  it("names each manager in its own words: forwarding's records are never called parking's", () => {
    const forwarded = managedRecordsOf('example.com', { parked: false, forwarding: true }, { forwardAddresses: ['192.0.2.1'] });
    expect(forwarded.map((r) => managedWords(r.managedBy).by)).toEqual(['forwarding']);
    expect(managedWords('forwarding').toRemove).toBe('Turn forwarding off to remove it.');
    expect(managedWords('parking')).toBe(MANAGED_WORDS.parking);
    expect(managedWords('mail').by).toBe('the provider');
  });
});
