import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import { EMPTY_DRAFT, planBatches } from './change-set.ts';
import { bulkAddTag, bulkDelete, bulkRemoveTag, bulkTtl, selectedRecords } from './bulk.ts';

const at = '2026-01-01T00:00:00.000Z';
const rec = (id: string, name: string, tags: string[] = [], metadata: unknown = null): DnsRecord => ({ id, zoneName: 'example.com', name, type: 'A', class: 'IN', ttl: 3600, rdata: `192.0.2.${id}`, metadata, comment: `note ${id}`, tags, createdAt: at, updatedAt: at });
const zone = [rec('1', 'web1', ['prod']), rec('2', 'web2'), rec('3', 'web3', ['prod']), rec('4', '@', [], { managed: true, managedBy: 'parking' })];

describe('changes to selected records together', () => {
  it('selects only records a person may change', () => {
    expect(selectedRecords(zone, new Set(['1', '4', 'gone'])).map((r) => r.id)).toEqual(['1']);
  });

  it('a TTL for all of them is one batch update that keeps each record notes: one signature', () => {
    const plan = planBatches(bulkTtl(EMPTY_DRAFT, zone.slice(0, 3), 300), zone, 'example.com');
    expect(plan.batches).toHaveLength(1);
    expect(plan.batches[0]).toMatchObject({ kind: 'update', payload: { records: [{ id: '1', ttl: 300, comment: 'note 1', tags: ['prod'] }, { id: '2', ttl: 300, tags: [] }, { id: '3', ttl: 300 }] } });
  });

  it('a tag is added where it is missing, and refused when malformed or past ten tags', () => {
    const added = bulkAddTag(EMPTY_DRAFT, zone.slice(0, 3), 'cdn');
    expect('draft' in added && added.draft.updates.map((u) => u.record.tags)).toEqual([['prod', 'cdn'], ['cdn'], ['prod', 'cdn']]);
    const already = bulkAddTag(EMPTY_DRAFT, zone.slice(0, 3), 'prod');
    expect('draft' in already && already.draft.updates.map((u) => u.id)).toEqual(['2']);
    expect(bulkAddTag(EMPTY_DRAFT, zone, 'not ok')).toMatchObject({ problem: expect.stringMatching(/name or name:value/) });
    const full = rec('5', 'full', Array.from({ length: 10 }, (_, i) => `t${i}`));
    expect(bulkAddTag(EMPTY_DRAFT, [full], 'one-more')).toEqual({ problem: 'full A has 10 tags already, the most a record keeps' });
    expect(bulkRemoveTag(EMPTY_DRAFT, zone.slice(0, 3), 'prod').updates.map((u) => [u.id, u.record.tags])).toEqual([['1', []], ['3', []]]);
  });

  it('deleting them is one batch delete', () => {
    const plan = planBatches(bulkDelete(EMPTY_DRAFT, zone.slice(0, 3)), zone, 'example.com');
    expect(plan.batches).toEqual([expect.objectContaining({ kind: 'delete', payload: { zoneName: 'example.com', recordsIds: ['1', '2', '3'] } })]);
  });
});
