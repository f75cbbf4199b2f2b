import { describe, expect, it } from 'vitest';
import { checkFields, composeRdata, decomposeRdata, fieldsFor } from './record-fields.ts';
import { recordFormSchema, switchType, toFormValues, toRecordInput, type RecordFormValues } from './record-form.ts';

const zone = 'example.com';
const form = (values: Record<string, string>) => ({ name: '@', ttl: '3600', ...values }) as RecordFormValues;

function errorsOf(values: RecordFormValues): Record<string, string> {
  const parsed = recordFormSchema(zone).safeParse(values);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('record form per type', () => {
  const good: Array<[string, Record<string, string>, string]> = [
    ['A', { value: '192.0.2.1' }, '192.0.2.1'],
    ['AAAA', { value: '2001:DB8:0:0::1' }, '2001:db8::1'],
    ['CNAME', { value: 'Target.Example.NET' }, 'target.example.net.'],
    ['NS', { value: 'ns1.example.net.' }, 'ns1.example.net.'],
    ['PTR', { value: 'host.example.com' }, 'host.example.com.'],
    ['MX', { priority: '10', host: 'mail.example.com' }, '10 mail.example.com.'],
    ['TXT', { value: 'v=spf1 -all' }, '"v=spf1 -all"'],
    ['SRV', { priority: '10', weight: '5', port: '5060', target: 'sip.example.com.' }, '10 5 5060 sip.example.com.'],
    ['CAA', { flags: '0', tag: 'issue', value: 'letsencrypt.org' }, '0 issue "letsencrypt.org"'],
    ['TLSA', { usage: '3', selector: '1', matchingType: '1', data: '0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6' }, '3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6'],
    ['SSHFP', { algorithm: '4', fpType: '2', fingerprint: '123456789abcdef67890123456789abcdef67890123456789abcdef123456789' }, '4 2 123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789'],
    ['DS', { keyTag: '12345', algorithm: '13', digestType: '2', digest: '3F1A5C9D2B7E4F608A1C3D5E7F9081A2B3C4D5E6F708192A3B4C5D6E7F809A1B' }, '12345 13 2 3F1A5C9D2B7E4F608A1C3D5E7F9081A2B3C4D5E6F708192A3B4C5D6E7F809A1B'],
    ['HTTPS', { value: '1 . alpn=h2,h3' }, '1 . alpn=h2,h3'],
  ];
  for (const [type, fields, stored] of good) {
    it(`${type}: composes the stored form and decomposes it back`, () => {
      const values = form({ type, ...fields });
      expect(errorsOf(values)).toEqual({});
      const record = toRecordInput(values, zone);
      expect(record).toEqual({ name: '@', type, rdata: stored, ttl: 3600, comment: '', tags: [] });
      const again = toRecordInput(toFormValues(record!), zone);
      expect(again?.rdata).toBe(stored);
    });
  }

  it('MX: a bad priority lands on Priority, a bad host on Mail server', () => {
    expect(Object.keys(errorsOf(form({ type: 'MX', priority: '70000', host: 'mail.example.com' })))).toEqual(['priority']);
    const errors = errorsOf(form({ type: 'MX', priority: '10', host: 'https://mail.example.com' }));
    expect(errors.host).toMatch(/not a web address/);
  });

  it('SRV: a port out of range lands on Port with an example', () => {
    const errors = errorsOf(form({ type: 'SRV', priority: '10', weight: '5', port: '99999', target: 'sip.example.com' }));
    expect(errors).toEqual({ port: 'Port is a whole number from 0 to 65535, e.g. 5060' });
  });

  it('CAA: a value with a quote is written escaped and an iodef needs a URL', () => {
    expect(composeRdata('CAA', { flags: '0', tag: 'issue', value: 'ca.example' })).toBe('0 issue "ca.example"');
    expect(errorsOf(form({ type: 'CAA', flags: '0', tag: 'iodef', value: 'not a url' })).value).toBeTruthy();
    expect(decomposeRdata('CAA', '128 issuewild "ca.example; account=1"')).toEqual({ flags: '128', tag: 'issuewild', value: 'ca.example; account=1' });
  });

  it('TXT: a value past 255 octets is split for the wire and joined back for editing', () => {
    const long = 'k='.padEnd(600, 'x');
    const record = toRecordInput(form({ type: 'TXT', value: long }), zone)!;
    expect(record.rdata.split('" "')).toHaveLength(3);
    expect(decomposeRdata('TXT', record.rdata).value).toBe(long);
  });

  it('TXT: more than 65,535 octets is refused on the text field', () => {
    const errors = errorsOf(form({ type: 'TXT', value: 'x'.repeat(66000) }));
    expect(errors.value).toMatch(/too long/);
  });

  it('A: an IPv6 address points to AAAA', () => {
    expect(errorsOf(form({ type: 'A', value: '2001:db8::1' })).value).toMatch(/use an AAAA record/);
  });

  it('empty fields say what to enter, with an example', () => {
    expect(errorsOf(form({ type: 'A', value: '' })).value).toMatch(/192\.0\.2/);
    expect(errorsOf(form({ type: 'DS', keyTag: '', algorithm: '13', digestType: '2', digest: 'AB' })).keyTag).toBe('Key tag is required, e.g. 12345');
  });

  it('name and TTL: relative names, absolute names taken in, bad ones refused on their field', () => {
    expect(toRecordInput(form({ type: 'A', value: '192.0.2.1', name: 'WWW.example.com.', ttl: '1h' }), zone)).toMatchObject({ name: 'www', ttl: 3600 });
    const errors = errorsOf(form({ type: 'A', value: '192.0.2.1', name: 'www.other.org.', ttl: '-5' }));
    expect(errors.name).toMatch(/not inside example.com/);
    expect(errors.ttl).toMatch(/cannot be negative/);
  });

  it('switching type keeps name and TTL and a single value', () => {
    const next = switchType(form({ type: 'A', value: 'x', name: 'www', ttl: '300' }), 'CNAME');
    expect(next).toMatchObject({ type: 'CNAME', name: 'www', ttl: '300', value: 'x' });
    expect(switchType(next, 'MX')).toMatchObject({ type: 'MX', priority: '', host: '' });
  });

  it('structured types show their own fields', () => {
    expect(fieldsFor('SRV').map((f) => f.key)).toEqual(['priority', 'weight', 'port', 'target']);
    expect(fieldsFor('A').map((f) => f.key)).toEqual(['value']);
    expect(checkFields('SSHFP', { algorithm: '4', fpType: '3', fingerprint: 'AB' }).ok).toBe(false);
  });
});

describe('the record form: comment and tags', () => {
  it('refuses a 501-character comment, an eleventh tag and a malformed tag at their fields, naming the rule', () => {
    const a = { type: 'A', value: '192.0.2.1' };
    expect(errorsOf(form({ ...a, comment: 'x'.repeat(501) })).comment).toBe('A comment is at most 500 characters; this one has 501');
    expect(errorsOf(form({ ...a, tags: Array.from({ length: 11 }, (_, i) => `t${i}`).join(', ') })).tags).toBe('At most 10 tags per record; this one has 11');
    expect(errorsOf(form({ ...a, tags: 'prod, env:' })).tags).toMatch(/^Tag 2: "env:" is not a tag\. A tag is name or name:value/);
    expect(errorsOf(form({ ...a, comment: 'x'.repeat(500), tags: 'prod, team:web' }))).toEqual({});
  });

  it('gives the record its comment and tags, and an edit starts from the stored ones', () => {
    const record = toRecordInput(form({ type: 'A', value: '192.0.2.1', comment: '  Front door ', tags: 'prod team:web' }), zone);
    expect(record).toMatchObject({ comment: 'Front door', tags: ['prod', 'team:web'] });
    expect(toFormValues(record!)).toMatchObject({ comment: 'Front door', tags: 'prod, team:web' });
  });
});
