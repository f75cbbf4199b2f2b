import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { HistoryEntry, RecordChange } from '#core/wire/history.ts';
import { EMPTY_DRAFT } from '@/features/records/index.ts';
import { applySteps, allSettled, restoreSteps, revertSteps } from './revert.ts';
import { zoneAt } from './zone-at.ts';

const AT = '2026-11-25T10:00:00.000Z';
const rec = (id: string, name: string, rdata: string, type: DnsRecord['type'] = 'A'): DnsRecord => ({
  id, zoneName: 'example.com', name, type, class: 'IN', ttl: 300, rdata, metadata: null, createdAt: AT, updatedAt: AT,
});
let serial = 1;
const entry = (...changes: RecordChange[]): HistoryEntry => ({
  id: String(serial), zoneName: 'example.com', serial: serial++, at: AT, operation: 'batchUpdateDnsRecords',
  actor: { wallet: '0x00000000000000000000000000000000000000a1', account: null, via: 'api-key' }, changes,
});
const PARKING = { ...rec('p1', '@', '34.123.0.161'), metadata: { managed: true, managedBy: 'parking' } };

describe('zoneAt', () => {
  it('walks back from the zone as it is now through every newer entry', () => {
    const www1 = rec('w', 'www', '192.0.2.1');
    const www2 = rec('w', 'www', '192.0.2.2');
    const mail = rec('m', 'mail', '192.0.2.9');
    const made = entry({ op: 'create', before: null, after: www1 });
    const edited = entry({ op: 'update', before: www1, after: www2 });
    const deleted = entry({ op: 'delete', before: mail, after: null });
    const newestFirst = [deleted, edited, made];
    const now = [www2, PARKING];
    expect(zoneAt(now, newestFirst, deleted.id)).toEqual([www2]);
    expect(zoneAt(now, newestFirst, edited.id)?.sort((a, b) => a.id.localeCompare(b.id))).toEqual([mail, www2]);
    expect(zoneAt(now, newestFirst, made.id)?.sort((a, b) => a.id.localeCompare(b.id))).toEqual([mail, www1]);
    expect(zoneAt(now, newestFirst, 'unknown')).toBeNull();
  });
});

describe('revertSteps', () => {
  it('inverts each change: a deletion comes back, an edit goes back, a creation goes', () => {
    const old = rec('w', 'www', '192.0.2.1');
    const changed = rec('w', 'www', '192.0.2.2');
    const gone = rec('m', 'mail', '192.0.2.9');
    const added = rec('n', 'new', '192.0.2.7');
    const steps = revertSteps(entry({ op: 'update', before: old, after: changed }, { op: 'delete', before: gone, after: null }, { op: 'create', before: null, after: added }), [changed, added]);
    expect(steps.map((s) => `${s.kind} ${'record' in s ? s.record.rdata : s.current.rdata} ${s.conflict ?? ''}`.trim())).toEqual(['update 192.0.2.1', 'create 192.0.2.9', 'delete 192.0.2.7']);
    const draft = applySteps(EMPTY_DRAFT, steps, {});
    expect(draft.updates.map((u) => u.record.rdata)).toEqual(['192.0.2.1']);
    expect(draft.creates.map((c) => c.record.name)).toEqual(['mail']);
    expect(draft.deletes.map((d) => d.id)).toEqual(['n']);
  });

  it('shows a record changed again since as a conflict, and adds it only when the person chooses to put it back', () => {
    const old = rec('w', 'www', '192.0.2.1');
    const changed = rec('w', 'www', '192.0.2.2');
    const since = rec('w', 'www', '192.0.2.3');
    const steps = revertSteps(entry({ op: 'update', before: old, after: changed }), [since]);
    expect(steps).toHaveLength(1);
    expect(steps[0].conflict).toBe('changed since: it is now www A 192.0.2.3 (TTL 300)');
    expect(allSettled(steps, {})).toBe(false);
    expect(applySteps(EMPTY_DRAFT, steps, { [steps[0].key]: 'keep' })).toEqual(EMPTY_DRAFT);
    expect(applySteps(EMPTY_DRAFT, steps, { [steps[0].key]: 'restore' }).updates[0].record.rdata).toBe('192.0.2.1');
  });

  it('has nothing to do for a deletion whose record is already back', () => {
    const gone = rec('m', 'mail', '192.0.2.9');
    expect(revertSteps(entry({ op: 'delete', before: gone, after: null }), [rec('m2', 'mail', '192.0.2.9')])).toEqual([]);
  });
});

describe('restoreSteps', () => {
  it('turns the zone as it is now into the zone as it stood, leaving parking records alone', () => {
    const keep = rec('k', 'keep', '192.0.2.1');
    const edited = rec('e', 'edit', '192.0.2.2');
    const editedNow = rec('e', 'edit', '192.0.2.3');
    const removed = rec('r', 'removed', '192.0.2.4');
    const added = rec('a', 'added', '192.0.2.5');
    const steps = restoreSteps([keep, edited, removed], [keep, editedNow, added, PARKING]);
    expect(steps.map((s) => s.key).sort()).toEqual(['create:r', 'delete:a', 'update:e']);
  });

  it('keeps a record deleted and created again since, with the same content', () => {
    const before = rec('old', 'mail', '192.0.2.9');
    const again = rec('new', 'mail', '192.0.2.9');
    expect(restoreSteps([before], [again])).toEqual([]);
  });
});
