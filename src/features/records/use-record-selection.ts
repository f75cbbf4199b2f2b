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
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const chosen = useMemo(() => selectedRecords(zone, selected), [zone, selected]);
  const selectable = useMemo(() => filtered.filter((row) => !row.pending && isStoredRecord(row.record)), [filtered]);
  const { updateDraft, review } = changeSet;
  const together = (change: Parameters<typeof updateDraft>[0]) => {
    updateDraft(change);
    setSelected(new Set());
    review();
  };

  return {
    selected,
    count: chosen.length,
    shown: selectable.length,
    toggle: (id: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    selectShown: () => setSelected(new Set(selectable.map((row) => row.id))),
    clear: () => setSelected(new Set()),
    ttl: (ttl: number) => together((d) => bulkTtl(d, chosen, ttl)),
    addTag: (tag: string): string | null => {
      const outcome = bulkAddTag(changeSet.draft, chosen, tag);
      if ('problem' in outcome) return outcome.problem;
      together(() => outcome.draft);
      return null;
    },
    removeTag: (tag: string) => together((d) => bulkRemoveTag(d, chosen, tag)),
    remove: () => together((d) => bulkDelete(d, chosen)),
  };
}
