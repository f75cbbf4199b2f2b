import { useMemo, useState } from 'react';
import { isStoredRecord, type DnsRecord } from '#core/wire/dns.ts';
import { bulkAddTag, bulkDelete, bulkRemoveTag, bulkTtl, selectedRecords } from './model/bulk.ts';
import type { Row } from './model/table.ts';
import type { ChangeSet } from './use-change-set.ts';

/**
 * Records selected for a change together (model/bulk.ts): ids, kept while they stay in the zone. A change to them
 * goes into the change set, clears the selection and opens the review.
 */
export function useRecordSelection({ zone, filtered, changeSet }: { zone: DnsRecord[]; filtered: Row[]; changeSet: ChangeSet }) {
  const [selected, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set());
  // Why the selection was emptied by a change made to it (said beside "No record selected"); null once the person selects again.
  const [clearedBecause, setClearedBecause] = useState<string | null>(null);
  const setSelected = (next: ReadonlySet<string> | ((current: ReadonlySet<string>) => ReadonlySet<string>)) => {
    setClearedBecause(null);
    setSelectedIds(next);
  };
  const chosen = useMemo(() => selectedRecords(zone, selected), [zone, selected]);
  const selectable = useMemo(() => filtered.filter((row) => !row.pending && isStoredRecord(row.record)), [filtered]);
  const { updateDraft, review } = changeSet;
  const together = (change: Parameters<typeof updateDraft>[0], what: string) => {
    updateDraft(change);
    setSelectedIds(new Set());
    setClearedBecause(`Selection cleared: ${what}, in the change set to review`);
    review();
  };

  return {
    selected,
    count: chosen.length,
    clearedBecause,
    shown: selectable.length,
    toggle: (id: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    selectShown: () => setSelected(new Set(selectable.map((row) => row.id))),
    clear: () => setSelected(new Set()),
    ttl: (ttl: number) => together((d) => bulkTtl(d, chosen, ttl), 'the TTLs changed'),
    addTag: (tag: string): string | null => {
      const outcome = bulkAddTag(changeSet.draft, chosen, tag);
      if ('problem' in outcome) return outcome.problem;
      together(() => outcome.draft, 'the tags changed');
      return null;
    },
    removeTag: (tag: string) => together((d) => bulkRemoveTag(d, chosen, tag), 'the tags changed'),
    remove: () => together((d) => bulkDelete(d, chosen), 'the records are to be deleted'),
  };
}
