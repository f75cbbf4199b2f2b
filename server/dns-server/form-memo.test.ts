import { describe, expect, it } from 'vitest';
import { formMemo } from './form-memo.ts';
import type { ZoneRow } from './zone-rows.ts';

const row = (name: string, extra: Partial<ZoneRow> = {}): ZoneRow => ({
  name, version: '7', serial: 12, parked: false, forward_enabled: true, expired: false, record_count: 2, created: '2026-01-01',
  form: JSON.stringify([[['@', 'A', 300, '192.0.2.1'], ['www', 'TXT', 60, '"héllo ☃"']], []]), records: null, flattened: null, dnssec_key: null, has_below: false, ...extra,
});

describe('formMemo', () => {
  it('gives back what a build needs of each row kept, and keeps no signed zone nor one without a form', () => {
    const memo = formMemo(1 << 20);
    memo.keep(row('a.com', { has_below: true }));
    memo.keep(row('signed.com', { dnssec_key: '{}' }));
    memo.keep(row('old.com', { form: null }));
    expect(memo.get('a.com')).toMatchObject({ name: 'a.com', version: '7', serial: 12, parked: false, forward_enabled: true, expired: false, has_below: true, form: row('a.com').form, dnssec_key: null });
    expect([memo.has('a.com'), memo.leaf('a.com'), memo.has('signed.com'), memo.has('old.com'), memo.leaf('old.com')]).toEqual([true, false, false, false, undefined]);
  });

  it('stays within its bytes, dropping the least recently asked first', () => {
    const memo = formMemo(1 << 20);
    memo.keep(row('one.com'));
    const each = memo.bytes;
    const small = formMemo(each * 3);
    for (const name of ['a.com', 'b.com', 'c.com']) small.keep(row(name));
    small.get('a.com');
    small.keep(row('d.com'));
    expect(['a.com', 'b.com', 'c.com', 'd.com'].map(small.has)).toEqual([true, false, true, true]);
    expect(small.bytes).toBeLessThanOrEqual(each * 3);
    small.delete('a.com');
    expect(small.size).toBe(2);
    small.clear();
    expect([small.size, small.bytes]).toEqual([0, 0]);
  });
});
