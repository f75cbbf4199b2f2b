import { describe, expect, it } from 'vitest';
import type { StoredDnsRecord } from '#core/wire/dns.ts';
import { addCreate, EMPTY_DRAFT } from './change-set.ts';
import { addForm, checkFormChange, draftEntryForm, editForm, formKey, formTitle, formWording, signsNow, singleWrite, withFormChange } from './form-mode.ts';

const zoneName = 'example.com';
const at = '2026-01-01T00:00:00.000Z';
const rec = (id: string, name: string, type: StoredDnsRecord['type'], rdata: string, metadata: unknown = null): StoredDnsRecord => ({ id, zoneName, name, type, class: 'IN', ttl: 300, rdata, metadata, createdAt: at, updatedAt: at });
const www = rec('w', 'www', 'A', '192.0.2.1');
const zone = [www];

describe('record form modes', () => {
  it('names, keys and words each mode, and offers a signature only outside the change set', () => {
    const add = addForm();
    const edit = editForm(www);
    const draftCreate = draftEntryForm({ kind: 'add', key: 'c:1', after: { name: 'api', type: 'A', rdata: '192.0.2.2', ttl: 60 } });
    const draftUpdate = draftEntryForm({ kind: 'change', key: 'u:w', id: 'w', before: www, after: { name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 } });
    expect([add, edit, draftCreate!, draftUpdate!].map((f) => [f.mode, formTitle(f), formKey(f), formWording(f), signsNow(f)])).toEqual([
      ['add', 'Add a record', 'add-new', 'add', true],
      ['edit', 'Edit record', 'edit-w', 'edit', true],
      ['draft-create', 'Edit a pending record', 'draft-create-c:1', 'add', false],
      ['draft-update', 'Edit record', 'draft-update-w', 'edit', false],
    ]);
    expect(add.initial).toMatchObject({ type: 'A', name: '@' });
    expect(draftUpdate!.initial).toMatchObject({ value: '192.0.2.9' });
    // A deletion, or an edit of a record gone from the zone, has no form.
    expect(draftEntryForm({ kind: 'remove', key: 'd:w', id: 'w', before: www })).toBeNull();
    expect(draftEntryForm({ kind: 'change', key: 'u:x', id: 'x', after: { name: 'x', type: 'A', rdata: '192.0.2.3', ttl: 300 } })).toBeNull();
  });

  it('puts the form’s change into the draft and names its item', () => {
    const record = { name: 'www', type: 'A' as const, rdata: '192.0.2.9', ttl: 300 };
    const edited = withFormChange(EMPTY_DRAFT, editForm(www), record);
    expect(edited.key).toBe('u:w');
    expect(edited.draft.updates).toEqual([{ key: 'u:w', id: 'w', record }]);
    // Editing back to what the zone holds leaves nothing to name.
    expect(withFormChange(edited.draft, editForm(www), { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 })).toEqual({ draft: EMPTY_DRAFT, key: null });
    const added = withFormChange(EMPTY_DRAFT, addForm(), record);
    expect(added.key).toBe(added.draft.creates[0].key);
    const replaced = withFormChange(added.draft, { mode: 'draft-create', key: added.key!, initial: addForm().initial }, { ...record, name: 'api' });
    expect(replaced.draft.creates).toEqual([{ key: added.key, record: { ...record, name: 'api' } }]);
  });

  it('checks a quick change alone, an unpark-first one without parking, and a draft change with the rest of the draft', () => {
    const cname = { name: 'www', type: 'CNAME' as const, rdata: 'host.example.net.', ttl: 300 };
    expect(checkFormChange(addForm(), cname, 'sign', EMPTY_DRAFT, { zone, zoneName, parked: false })?.message).toMatch(/CNAME/);
    const parkedZone = [...zone, rec('p', '@', 'A', '34.123.0.161', { managed: true, managedBy: 'parking' })];
    const apex = { name: '@', type: 'A' as const, rdata: '192.0.2.7', ttl: 300 };
    expect(checkFormChange(addForm(), apex, 'sign', EMPTY_DRAFT, { zone: parkedZone, zoneName, parked: true })).not.toBeNull();
    expect(checkFormChange(addForm(), apex, 'unpark-and-sign', EMPTY_DRAFT, { zone: parkedZone, zoneName, parked: true })).toBeNull();
    // The draft already adds an A record at api: a CNAME there conflicts only together with it.
    const draft = addCreate(EMPTY_DRAFT, { name: 'api', type: 'A', rdata: '192.0.2.2', ttl: 300 });
    const apiCname = { ...cname, name: 'api' };
    expect(checkFormChange(addForm(), apiCname, 'sign', draft, { zone, zoneName, parked: false })).toBeNull();
    expect(checkFormChange(addForm(), apiCname, 'draft', draft, { zone, zoneName, parked: false })?.message).toMatch(/CNAME/);
  });

  it('checks an apex address against forwarding as the service does, signed now or in the draft', () => {
    const forwarded = [...zone, rec('f', '@', 'A', '192.0.2.80', { managed: true, managedBy: 'forwarding' })];
    const apex = { name: '@', type: 'A' as const, rdata: '192.0.2.7', ttl: 300 };
    for (const how of ['sign', 'draft'] as const) {
      expect(checkFormChange(addForm(), apex, how, EMPTY_DRAFT, { zone: forwarded, zoneName, parked: false, forwarding: true })?.message).toMatch(/forwarded/);
    }
    expect(checkFormChange(addForm(), { ...apex, name: 'www2' }, 'sign', EMPTY_DRAFT, { zone: forwarded, zoneName, parked: false, forwarding: true })).toBeNull();
  });

  it('sends an edit with its id and an addition without, both in the zone', () => {
    const record = { name: 'www', type: 'A' as const, rdata: '192.0.2.9', ttl: 300 };
    expect(singleWrite(editForm(www), record, zoneName)).toEqual({ method: 'updateDnsRecord', payload: { id: 'w', zoneName, ...record } });
    expect(singleWrite(addForm(), record, zoneName)).toEqual({ method: 'createDnsRecord', payload: { zoneName, ...record } });
  });
});
