import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import { addCreate, addDelete, diffDraft, EMPTY_DRAFT, planBatches, removeItem, setUpdate, settleBatch, type Draft, asOneWrite } from './change-set.ts';
import { batchInWords } from './describe.ts';
import { draftStorageKey, loadDraft, saveDraft } from './draft-storage.ts';
import { checkDraft } from './zone-check.ts';

const at = '2026-01-01T00:00:00.000Z';
function rec(id: string, name: string, type: DnsRecord['type'], rdata: string, managed = false): DnsRecord {
  return { id, zoneName: 'example.com', name, type, class: 'IN', ttl: 3600, rdata, metadata: managed ? { managed: true, managedBy: 'parking' } : null, createdAt: at, updatedAt: at };
}
const zone = [rec('1', 'www', 'A', '192.0.2.1'), rec('2', '@', 'MX', '10 mail.example.com.'), rec('3', '@', 'TXT', '"v=spf1 -all"'), rec('p', '@', 'A', '34.123.0.161', true)];

describe('change set', () => {
  it('plans one batch per kind in the order deletes, updates, creates', () => {
    let draft: Draft = EMPTY_DRAFT;
    draft = addCreate(draft, { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 });
    draft = setUpdate(draft, zone[1], { name: '@', type: 'MX', rdata: '20 mail.example.com.', ttl: 3600 });
    draft = setUpdate(draft, zone[2], { name: '@', type: 'TXT', rdata: '"v=spf1 ~all"', ttl: 3600 });
    draft = addDelete(draft, '1');
    const plan = planBatches(draft, zone, 'example.com');
    expect(plan.batches.map((b) => b.operationId)).toEqual(['batchDeleteDnsRecords', 'batchUpdateDnsRecords', 'batchCreateDnsRecords']);
    expect(plan.batches[0]).toMatchObject({ payload: { zoneName: 'example.com', recordsIds: ['1'] } });
    expect(plan.batches[1]).toMatchObject({ payload: { records: [{ id: '2', rdata: '20 mail.example.com.' }, { id: '3', rdata: '"v=spf1 ~all"' }] } });
    expect(plan.skipped).toEqual([]);
  });

  it('sends an edit that changes a record\u2019s type on its own, after the batch of same-type edits', () => {
    let draft = setUpdate(EMPTY_DRAFT, zone[0], { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 });
    draft = setUpdate(draft, zone[1], { name: '@', type: 'MX', rdata: '20 mail.example.com.', ttl: 3600 });
    const plan = planBatches(draft, zone, 'example.com');
    expect(plan.batches.map((b) => [b.kind, b.operationId])).toEqual([
      ['update', 'batchUpdateDnsRecords'],
      ['retype', 'updateDnsRecord'],
    ]);
    expect(plan.batches[1]).toMatchObject({ keys: ['u:1'], id: '1', payload: { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 } });
    expect(batchInWords(plan.batches[1], 'example.com', (id) => `record ${id}`)).toEqual([
      'Change the type of a record in example.com:',
      '\u2212 record 1',
      '+ CNAME www.example.com \u2192 host.example.net.',
    ]);
  });

  it('replacing an A by a CNAME passes the zone rules because the delete comes first', () => {
    let draft = addDelete(EMPTY_DRAFT, '1');
    draft = addCreate(draft, { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 });
    expect(checkDraft(draft, zone, 'example.com', false).size).toBe(0);
    const onlyCreate = addCreate(EMPTY_DRAFT, { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 });
    const problems = checkDraft(onlyCreate, zone, 'example.com', false);
    expect([...problems.values()][0].message).toMatch(/www/);
  });

  it('flags an apex A while parked, before the wallet opens', () => {
    const draft = addCreate(EMPTY_DRAFT, { name: '@', type: 'A', rdata: '192.0.2.9', ttl: 300 });
    expect(checkDraft(draft, zone, 'example.com', true).size).toBe(1);
  });

  it('skips what needs no request: gone records, unchanged edits, existing records, managed ones', () => {
    let draft = addDelete(EMPTY_DRAFT, 'gone');
    draft = addDelete(draft, 'p');
    draft = { ...draft, updates: [{ key: 'u:2', id: '2', record: { name: '@', type: 'MX', rdata: '10 mail.example.com.', ttl: 3600 } }] };
    draft = addCreate(draft, { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60 });
    const plan = planBatches(draft, zone, 'example.com');
    expect(plan.batches).toEqual([]);
    expect(plan.skipped.map((s) => s.reason)).toEqual(['Already gone from the zone', 'Managed by parking: it cannot be deleted here', 'Same as the zone', 'Already in the zone']);
  });

  it('splits a kind past 1,000 records into several batches', () => {
    const records = Array.from({ length: 1500 }, (_, i) => ({ name: `h${i}`, type: 'A' as const, rdata: '192.0.2.1', ttl: 60 }));
    const draft = records.reduce(addCreate, EMPTY_DRAFT);
    expect(planBatches(draft, zone, 'example.com').batches.map((b) => b.keys.length)).toEqual([1000, 500]);
  });

  it('a landed batch leaves the draft; a refused one keeps every item with the reason, per record when given', () => {
    let draft = addDelete(EMPTY_DRAFT, '1');
    draft = addCreate(draft, { name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 60 });
    draft = addCreate(draft, { name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 60 });
    const [del, create] = planBatches(draft, zone, 'example.com').batches;
    const afterDelete = settleBatch(draft, del, { ok: true });
    expect(afterDelete.deletes).toEqual([]);
    const refused = settleBatch(afterDelete, create, { ok: false, message: 'Invalid input', fieldErrors: { 'records.1.rdata': ['Bad address'] } });
    expect(refused.creates.map((c) => c.error)).toEqual(['Not applied: Invalid input', 'Bad address']);
    const whole = settleBatch(afterDelete, create, { ok: false, message: 'This wallet does not own example.com' });
    expect(whole.creates.every((c) => c.error === 'This wallet does not own example.com')).toBe(true);
  });

  it('a whole change set refused puts the service\u2019s errors (creates.N, updates.N, deletes.N) on their items, and keeps all of them', () => {
    let draft = addDelete(EMPTY_DRAFT, '1');
    draft = addCreate(draft, { name: 'a', type: 'A', rdata: '192.0.2.1', ttl: 60 });
    draft = addCreate(draft, { name: 'b', type: 'A', rdata: '192.0.2.2', ttl: 60 });
    const whole = asOneWrite(planBatches(draft, zone, 'example.com'), 'example.com')!;
    expect(whole.payload).toMatchObject({ deletes: ['1'], updates: [], creates: [{ name: 'a' }, { name: 'b' }] });
    const refused = settleBatch(draft, whole, { ok: false, message: 'Invalid input', fieldErrors: { 'creates.1.name': ['A CNAME is there'], 'deletes.0': ['Managed'] } });
    expect(refused.creates.map((c) => c.error)).toEqual(['Not applied: Invalid input', 'A CNAME is there']);
    expect(refused.deletes.map((d) => d.error)).toEqual(['Managed']);
    expect(settleBatch(draft, whole, { ok: true })).toEqual(EMPTY_DRAFT);
  });

  it('a whole change set signs notes in every record or none: an addition gets none, an edit its stored ones', () => {
    let draft = setUpdate(EMPTY_DRAFT, zone[0], { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 3600, tags: ['prod'] });
    draft = addDelete(draft, zone[1].id);
    draft = addCreate(draft, { name: 'n', type: 'A', rdata: '192.0.2.9', ttl: 60 });
    const whole = asOneWrite(planBatches(draft, zone, 'example.com'), 'example.com', zone)!;
    expect(whole.payload.updates[0]).toMatchObject({ tags: ['prod'], comment: '' });
    expect(whole.payload.creates[0]).toMatchObject({ comment: '', tags: [] });
  });

  it('diffs against the zone: before and after, with notes', () => {
    let draft = setUpdate(EMPTY_DRAFT, zone[1], { name: '@', type: 'MX', rdata: '20 mx.example.com.', ttl: 3600 });
    draft = addCreate(draft, { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60 });
    draft = addDelete(draft, '3');
    const diff = diffDraft(draft, zone);
    expect(diff.map((d) => d.kind)).toEqual(['remove', 'change', 'add']);
    expect(diff[1]).toMatchObject({ before: { rdata: '10 mail.example.com.' }, after: { rdata: '20 mx.example.com.' } });
    expect(diff[2].note).toBe('Already in the zone');
  });

  it('editing a record back to the zone drops the edit; deleting replaces an edit; items can be removed', () => {
    let draft = setUpdate(EMPTY_DRAFT, zone[0], { name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 3600 });
    expect(draft.updates).toHaveLength(1);
    expect(setUpdate(draft, zone[0], { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 3600 }).updates).toEqual([]);
    draft = addDelete(draft, '1');
    expect(draft.updates).toEqual([]);
    expect(removeItem(draft, 'd:1').deletes).toEqual([]);
  });

  it('persists per account and zone, and survives a corrupt value', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) };
    const key = draftStorageKey('0xABC', 'example.com');
    expect(key).not.toBe(draftStorageKey('0xdef', 'example.com'));
    const draft = addDelete(EMPTY_DRAFT, '1');
    saveDraft(storage, key, draft);
    expect(loadDraft(storage, key)).toEqual(draft);
    expect(loadDraft(storage, draftStorageKey('0xabc', 'example.com'))).toEqual(draft);
    saveDraft(storage, key, EMPTY_DRAFT);
    expect(store.has(key)).toBe(false);
    store.set(key, '{not json');
    expect(loadDraft(storage, key)).toEqual(EMPTY_DRAFT);
  });
});
