import { describe, expect, it } from 'vitest';
import type { ZoneRule } from '../wire/errors.ts';
import { parkingRecords } from './parking.ts';
import type { RecordLike } from './types.ts';
import { checkZoneChange, recordsAfterChange, type ZoneChange } from './zone-rules.ts';

const ZONE = 'example.com';

let nextId = 0;
function rec(name: string, type: RecordLike['type'], rdata: string, extra: Partial<RecordLike> = {}): RecordLike & { id: string } {
  nextId += 1;
  return { id: `r${nextId}`, name, type, rdata, ttl: 3600, ...extra };
}
const draft = (name: string, type: RecordLike['type'], rdata: string): RecordLike => ({ name, type, rdata, ttl: 3600 });
const change = (partial: Partial<ZoneChange>): ZoneChange => ({ creates: [], updates: [], deletes: [], ...partial });

const apexA = rec('@', 'A', '192.0.2.1');
const wwwCname = rec('www', 'CNAME', 'example.com.');
const mailA = rec('mail', 'A', '192.0.2.25');
const devNs = rec('dev', 'NS', 'ns1.other.net.');
const devDs = rec('dev', 'DS', '12345 13 2 ABCD');
const txt = rec('@', 'TXT', '"v=spf1 -all"');
const EXISTING = [apexA, wwwCname, mailA, devNs, devDs, txt];

interface Case {
  title: string;
  existing?: RecordLike[];
  change: ZoneChange;
  parked?: boolean;
  rule?: ZoneRule;
  target?: { kind: 'create' | 'update' | 'delete'; index: number };
  conflictsWith?: RecordLike;
  message?: string;
  /** How many violations (all of the same rule) the change gets; 1 unless said. */
  count?: number;
}

const CASES: Case[] = [
  // DNS_DUPLICATE
  { title: 'the same record twice', change: change({ creates: [draft('mail', 'A', '192.0.2.25')] }), rule: 'DNS_DUPLICATE', conflictsWith: mailA, message: 'mail.example.com already has this A record (192.0.2.25)' },
  { title: 'a second address at a name', change: change({ creates: [draft('mail', 'A', '192.0.2.26')] }) },
  { title: 'two identical records in one change', change: change({ creates: [draft('x', 'A', '192.0.2.9'), draft('x', 'A', '192.0.2.9')] }), rule: 'DNS_DUPLICATE', target: { kind: 'create', index: 1 } },
  { title: 'an update onto another record', change: change({ updates: [{ ...txt, name: '@', rdata: '"v=spf1 -all"' }, { ...mailA, name: '@', rdata: '192.0.2.1' }] }), rule: 'DNS_DUPLICATE', target: { kind: 'update', index: 1 }, conflictsWith: apexA },
  { title: 'a duplicate of a record deleted in the same change', change: change({ deletes: [mailA.id], creates: [draft('mail', 'A', '192.0.2.25')] }) },
  { title: 'a copy of a parking record', existing: [...EXISTING, ...parkingRecords(ZONE)], parked: true, change: change({ creates: [draft('@', 'CAA', '0 issue "letsencrypt.org"')] }), rule: 'DNS_DUPLICATE', message: 'from parking' },

  // DNS_CNAME_CONFLICT
  { title: 'an A beside a CNAME', change: change({ creates: [draft('www', 'A', '192.0.2.1')] }), rule: 'DNS_CNAME_CONFLICT', conflictsWith: wwwCname, message: 'www.example.com has a CNAME (pointing to example.com.), so it can hold no other record' },
  { title: 'a CNAME beside an A', change: change({ creates: [draft('mail', 'CNAME', 'mx.example.net.')] }), rule: 'DNS_CNAME_CONFLICT', conflictsWith: mailA, message: 'Delete the other records at mail.example.com first' },
  { title: 'a second CNAME at a name', change: change({ creates: [draft('www', 'CNAME', 'other.example.net.')] }), rule: 'DNS_CNAME_CONFLICT' },
  { title: 'replacing an A by a CNAME (delete then create)', change: change({ deletes: [mailA.id], creates: [draft('mail', 'CNAME', 'mx.example.net.')] }) },
  { title: 'turning an A into a CNAME by an update', change: change({ updates: [{ ...mailA, type: 'CNAME', rdata: 'mx.example.net.' }] }) },
  { title: 'a CNAME and an A created together (both flagged)', change: change({ creates: [draft('new', 'CNAME', 'x.example.net.'), draft('new', 'A', '192.0.2.3')] }), rule: 'DNS_CNAME_CONFLICT', target: { kind: 'create', index: 0 }, count: 2 },

  // DNS_CNAME_AT_APEX
  { title: 'a CNAME at the apex', existing: [], change: change({ creates: [draft('@', 'CNAME', 'host.example.net.')] }), rule: 'DNS_CNAME_AT_APEX', message: 'example.com itself cannot have a CNAME' },
  { title: 'a CNAME just below the apex', existing: [], change: change({ creates: [draft('app', 'CNAME', 'host.example.net.')] }) },
  { title: 'an update moving a CNAME to the apex', change: change({ updates: [{ ...wwwCname, name: '@', rdata: 'host.example.net.' }] }), rule: 'DNS_CNAME_AT_APEX' },

  // DNS_APEX_NS_SOA
  { title: 'an NS record at the apex', change: change({ creates: [draft('@', 'NS', 'ns1.other.net.')] }), rule: 'DNS_APEX_NS_SOA', message: 'set by the DNS provider' },
  { title: 'an SOA record anywhere', change: change({ creates: [draft('sub', 'SOA', 'ns1.x.net. h.x.net. 1 2 3 4 5')] }), rule: 'DNS_APEX_NS_SOA', message: 'SOA records belong to the DNS provider' },
  { title: 'an NS record for a subdomain', change: change({ creates: [draft('eu', 'NS', 'ns1.other.net.')] }) },
  { title: 'deleting a provider NS at the apex', existing: [...EXISTING, rec('@', 'NS', 'ns1.provider.net.', { id: 'apex-ns' })], change: change({ deletes: ['apex-ns'] }), rule: 'DNS_APEX_NS_SOA', target: { kind: 'delete', index: 0 } },

  // DNS_NS_EXCLUSIVE
  { title: 'an A at a delegated name', change: change({ creates: [draft('dev', 'A', '192.0.2.8')] }), rule: 'DNS_NS_EXCLUSIVE', conflictsWith: devNs, message: 'dev.example.com is handed to other name servers' },
  { title: 'a DS or another NS at a delegated name', change: change({ creates: [draft('dev', 'NS', 'ns2.other.net.'), draft('dev', 'DS', '54321 13 2 BEEF')] }) },
  { title: 'an NS at a name holding an A', change: change({ creates: [draft('mail', 'NS', 'ns1.other.net.')] }), rule: 'DNS_NS_EXCLUSIVE', conflictsWith: mailA },
  { title: 'NS and an A at the apex side by side are not a delegation', change: change({ creates: [draft('@', 'A', '192.0.2.2')] }) },

  // DNS_BELOW_DELEGATION
  { title: 'a record below a delegated name', change: change({ creates: [draft('www.dev', 'A', '192.0.2.8')] }), rule: 'DNS_BELOW_DELEGATION', conflictsWith: devNs, message: 'www.dev.example.com is below dev.example.com' },
  { title: 'a record beside a delegated name', change: change({ creates: [draft('www.devs', 'A', '192.0.2.8')] }) },
  { title: 'delegating a name that has records below it', existing: [...EXISTING, rec('a.shop', 'A', '192.0.2.4')], change: change({ creates: [draft('shop', 'NS', 'ns1.other.net.')] }), rule: 'DNS_BELOW_DELEGATION', message: 'such as A 192.0.2.4 at a.shop.example.com' },
  { title: 'glue at a name the delegation points to', existing: [...EXISTING, rec('dev', 'NS', 'ns1.dev.example.com.')], change: change({ creates: [draft('ns1.dev', 'A', '192.0.2.53'), draft('ns1.dev', 'AAAA', '2001:db8::53')] }) },
  { title: 'an address below a delegation that no NS record names', existing: [...EXISTING, rec('dev', 'NS', 'ns1.dev.example.com.')], change: change({ creates: [draft('ns2.dev', 'A', '192.0.2.54')] }), rule: 'DNS_BELOW_DELEGATION' },
  { title: 'a TXT at a glue name', existing: [...EXISTING, rec('dev', 'NS', 'ns1.dev.example.com.')], change: change({ creates: [draft('ns1.dev', 'TXT', '"x"')] }), rule: 'DNS_BELOW_DELEGATION' },
  { title: 'delegating with glue created in the same change', existing: [], change: change({ creates: [draft('shop', 'NS', 'ns1.shop.example.com.'), draft('ns1.shop', 'A', '192.0.2.60')] }) },
  { title: 'delegating a name whose glue is already there', existing: [rec('ns1.shop', 'A', '192.0.2.60')], change: change({ creates: [draft('shop', 'NS', 'ns1.shop.example.com.')] }) },
  { title: 'delegating a name with other records below besides glue', existing: [rec('ns1.shop', 'A', '192.0.2.60'), rec('www.shop', 'A', '192.0.2.61')], change: change({ creates: [draft('shop', 'NS', 'ns1.shop.example.com.')] }), rule: 'DNS_BELOW_DELEGATION', message: 'www.shop.example.com' },

  // Wildcards (RFC 4592) follow the same rules as any other name
  { title: 'a wildcard A', change: change({ creates: [draft('*', 'A', '192.0.2.7'), draft('*.shop', 'MX', '10 mail.example.com.')] }) },
  { title: 'a wildcard CNAME beside another record at the wildcard', existing: [rec('*', 'TXT', '"x"')], change: change({ creates: [draft('*', 'CNAME', 'host.example.net.')] }), rule: 'DNS_CNAME_CONFLICT' },
  { title: 'a wildcard below a delegation', change: change({ creates: [draft('*.dev', 'A', '192.0.2.7')] }), rule: 'DNS_BELOW_DELEGATION' },
  { title: 'delegating a name after deleting what lies below', existing: [...EXISTING, rec('a.shop', 'A', '192.0.2.4', { id: 'below' })], change: change({ deletes: ['below'], creates: [draft('shop', 'NS', 'ns1.other.net.')] }) },

  // DNS_NAME_TOO_LONG
  { title: 'a full name over 255 characters', change: change({ creates: [draft(Array.from({ length: 4 }, () => 'a'.repeat(61)).join('.'), 'A', '192.0.2.1')] }), rule: 'DNS_NAME_TOO_LONG', message: 'at most 255' },
  { title: 'a full name of exactly 255 characters', change: change({ creates: [draft(Array.from({ length: 4 }, () => 'a'.repeat(60)).join('.'), 'A', '192.0.2.1')] }) },

  // DNS_PARKING_CONFLICT
  { title: 'a new apex A while parked', parked: true, change: change({ creates: [draft('@', 'A', '192.0.2.77')] }), rule: 'DNS_PARKING_CONFLICT', message: 'example.com is parked' },
  { title: 'a new apex AAAA while parked', parked: true, change: change({ creates: [draft('@', 'AAAA', '2001:db8::77')] }), rule: 'DNS_PARKING_CONFLICT' },
  { title: 'changing a kept apex A while parked', parked: true, change: change({ updates: [{ ...apexA, rdata: '192.0.2.99' }] }), rule: 'DNS_PARKING_CONFLICT', message: 'then change your A record' },
  { title: 'moving an A to the apex while parked', parked: true, change: change({ updates: [{ ...mailA, name: '@' }] }), rule: 'DNS_PARKING_CONFLICT' },
  { title: 'the same apex A when not parked', parked: false, change: change({ creates: [draft('@', 'A', '192.0.2.77')] }) },
  { title: 'a www A while parked', parked: true, change: change({ creates: [draft('shop', 'A', '192.0.2.77')] }) },
  { title: 'an apex MX while parked', parked: true, change: change({ creates: [draft('@', 'MX', '10 mail.example.com.')] }) },
  { title: 'deleting a kept apex A while parked', parked: true, change: change({ deletes: [apexA.id] }) },
  { title: 'other writes while a kept apex A stays', parked: true, change: change({ creates: [draft('api', 'A', '192.0.2.1')] }) },

  // DNS_MANAGED_RECORD
  { title: 'deleting a parking record', existing: [...EXISTING, ...parkingRecords(ZONE)], parked: true, change: change({ deletes: [parkingRecords(ZONE)[0].id] }), rule: 'DNS_MANAGED_RECORD', target: { kind: 'delete', index: 0 }, message: 'belongs to parking and cannot be deleted' },
  { title: 'editing a parking record', existing: [...EXISTING, ...parkingRecords(ZONE)], parked: true, change: change({ updates: [{ ...parkingRecords(ZONE)[2], rdata: '0 issue "pki.goog"', managed: undefined }] }), rule: 'DNS_MANAGED_RECORD', target: { kind: 'update', index: 0 }, message: 'cannot be changed' },
  { title: 'deleting a user record beside parking records', existing: [...EXISTING, ...parkingRecords(ZONE)], parked: true, change: change({ deletes: [txt.id] }) },

  // ALIAS: at any name, the apex included; DNS_ALIAS_CONFLICT, DNS_ALIAS_LOOP
  { title: 'an ALIAS at the apex beside its MX and TXT', existing: [txt, rec('@', 'MX', '10 mail.example.com.')], change: change({ creates: [draft('@', 'ALIAS', 'app.vercel.example.')] }) },
  { title: 'an ALIAS at a subdomain', change: change({ creates: [draft('shop', 'ALIAS', 'shops.example.net.')] }) },
  { title: 'an ALIAS beside an A', change: change({ creates: [draft('@', 'ALIAS', 'app.example.net.')] }), rule: 'DNS_ALIAS_CONFLICT', conflictsWith: apexA, message: 'cannot stand beside a CNAME, A or AAAA' },
  { title: 'an ALIAS beside a CNAME', change: change({ creates: [draft('www', 'ALIAS', 'app.example.net.')] }), rule: 'DNS_ALIAS_CONFLICT', conflictsWith: wwwCname },
  { title: 'an A beside an ALIAS', existing: [rec('@', 'ALIAS', 'app.example.net.')], change: change({ creates: [draft('@', 'A', '192.0.2.8')] }), rule: 'DNS_ALIAS_CONFLICT', message: 'has an ALIAS (following app.example.net.)' },
  { title: 'an AAAA beside an ALIAS', existing: [rec('@', 'ALIAS', 'app.example.net.')], change: change({ creates: [draft('@', 'AAAA', '2001:db8::8')] }), rule: 'DNS_ALIAS_CONFLICT' },
  { title: 'a CNAME beside an ALIAS', existing: [rec('shop', 'ALIAS', 'app.example.net.')], change: change({ creates: [draft('shop', 'CNAME', 'other.example.net.')] }), rule: 'DNS_ALIAS_CONFLICT' },
  { title: 'a second ALIAS at a name', existing: [rec('shop', 'ALIAS', 'app.example.net.')], change: change({ creates: [draft('shop', 'ALIAS', 'other.example.net.')] }), rule: 'DNS_ALIAS_CONFLICT', message: 'follows one target' },
  { title: 'an ALIAS replacing the A it is created with', change: change({ deletes: [apexA.id], creates: [draft('@', 'ALIAS', 'app.example.net.')] }) },
  { title: 'an ALIAS at the apex while parked', parked: true, change: change({ deletes: [apexA.id], creates: [draft('@', 'ALIAS', 'app.example.net.')] }), rule: 'DNS_PARKING_CONFLICT' },
  { title: 'an ALIAS to its own name', existing: [], change: change({ creates: [draft('shop', 'ALIAS', 'shop.example.com.')] }), rule: 'DNS_ALIAS_LOOP', message: 'cannot point to shop.example.com itself' },
  { title: 'two ALIASes pointing at each other', existing: [rec('a', 'ALIAS', 'b.example.com.')], change: change({ creates: [draft('b', 'ALIAS', 'a.example.com.')] }), rule: 'DNS_ALIAS_LOOP', message: 'b.example.com → a.example.com → b.example.com' },
  { title: 'an ALIAS loop closed by a CNAME', existing: [rec('@', 'ALIAS', 'www.example.com.')], change: change({ creates: [draft('www', 'CNAME', 'example.com.')] }), rule: 'DNS_ALIAS_LOOP' },
  { title: 'an ALIAS chain that ends', existing: [rec('a', 'ALIAS', 'b.example.com.'), rec('b', 'CNAME', 'c.example.net.')], change: change({ creates: [draft('@', 'ALIAS', 'a.example.com.')] }) },
  { title: 'a CNAME loop without an ALIAS (not this rule)', existing: [rec('a', 'CNAME', 'b.example.com.')], change: change({ creates: [draft('b', 'CNAME', 'a.example.com.')] }) },
];

describe('checkZoneChange', () => {
  it.each(CASES)('$title -> $rule', ({ existing = EXISTING, change: zoneChange, parked = false, rule, target, conflictsWith, message, count = 1 }) => {
    const violations = checkZoneChange({ zoneName: ZONE, existing, change: zoneChange, parked });
    if (!rule) {
      expect(violations).toEqual([]);
      return;
    }
    expect(violations).toHaveLength(count);
    expect(violations.every((v) => v.rule === rule)).toBe(true);
    const [violation] = violations;
    expect(violation.rule).toBe(rule);
    if (target) expect(violation.target).toEqual(target);
    if (conflictsWith) expect(violation.conflictsWith).toEqual(conflictsWith);
    if (message) expect(violation.message).toContain(message);
  });

  it('covers every zone rule with a failing case', () => {
    const rules = new Set(CASES.map((c) => c.rule).filter(Boolean));
    expect([...rules].sort()).toEqual(
      [
        'DNS_APEX_NS_SOA', 'DNS_BELOW_DELEGATION', 'DNS_CNAME_AT_APEX', 'DNS_CNAME_CONFLICT', 'DNS_DUPLICATE', 'DNS_MANAGED_RECORD',
        'DNS_NAME_TOO_LONG', 'DNS_PARKING_CONFLICT', 'DNS_NS_EXCLUSIVE', 'DNS_ALIAS_CONFLICT', 'DNS_ALIAS_LOOP',
      ].sort(),
    );
  });

  it('points each violation at the record and field to fix', () => {
    const violations = checkZoneChange({
      zoneName: ZONE,
      existing: EXISTING,
      change: change({ creates: [draft('ok', 'A', '192.0.2.5'), draft('www', 'TXT', '"hello"'), draft('mail', 'A', '192.0.2.25')] }),
      parked: false,
    });
    expect(violations.map((v) => [v.rule, v.target, v.field])).toEqual([
      ['DNS_CNAME_CONFLICT', { kind: 'create', index: 1 }, 'name'],
      ['DNS_DUPLICATE', { kind: 'create', index: 2 }, 'rdata'],
    ]);
  });

  it('lets records that already break a rule stay while other records change', () => {
    const broken = [rec('legacy', 'CNAME', 'a.example.net.'), rec('legacy', 'A', '192.0.2.1')];
    expect(checkZoneChange({ zoneName: ZONE, existing: broken, change: change({ creates: [draft('fresh', 'A', '192.0.2.2')] }), parked: false })).toEqual([]);
  });
});

describe('recordsAfterChange', () => {
  it('applies deletes, then updates, then creates', () => {
    const updated = { ...mailA, rdata: '192.0.2.26' };
    const created = draft('new', 'A', '192.0.2.27');
    const after = recordsAfterChange(EXISTING, change({ deletes: [txt.id], updates: [updated], creates: [created] }));
    expect(after).toEqual([apexA, wwwCname, devNs, devDs, updated, created]);
  });
});
