import { useMemo, useState } from 'react';
import { downloadText } from '@/lib/download.ts';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { printZoneFile } from '#core/dns/zone-file.ts';
import type { HistoryEntry } from '#core/wire/history.ts';
import type { ApiError } from '@/lib/api-error.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { recordsQueryOptions, useDraft } from '@/features/records/index.ts';
import { exportZoneHistory } from './api/export-zone-history.ts';
import { isHistoryUnsupported, zoneHistoryQuery } from './api/get-zone-history.ts';
import { filterEntries, NO_FILTER, type HistoryFilter } from './model/describe-entry.ts';
import { applySteps, restoreSteps, revertSteps, type Resolution, type RevertStep } from './model/revert.ts';
import { zoneAt } from './model/zone-at.ts';

/** A revert or restore being prepared: its steps against the zone as it is now, and the conflicts' choices so far. */
export interface Preparing {
  title: string;
  steps: RevertStep[];
}

/**
 * The History tab's controller: the zone's history (a page at a time), the zone as it is now, the filters, and
 * putting changes back through the records page's change set (the draft of this account and zone), where they are
 * reviewed as a diff and signed like any change.
 */
export function useHistory(domain: string, recordId: string | null) {
  const zoneName = domain.toLowerCase();
  const api = useApi();
  const session = useWalletSession();
  const { apiKey } = useSettings();
  const canRead = session.status === 'signed-in' || Boolean(apiKey);
  const history = useInfiniteQuery(zoneHistoryQuery(api, zoneName, session.address, canRead));
  const queryClient = useQueryClient();
  const [, updateDraft] = useDraft(session.address, zoneName);
  const [filter, setFilter] = useState<HistoryFilter>({ ...NO_FILTER, recordId });
  const [preparing, setPreparing] = useState<Preparing | null>(null);

  const entries = useMemo(() => history.data?.pages.flatMap((p) => p.entries) ?? [], [history.data]);
  const shown = useMemo(() => filterEntries(entries, filter), [entries, filter]);
  const unsupported = isHistoryUnsupported(history.error as ApiError | null);

  /** The zone as it is this moment, not as last read: a conflict is judged against what the service holds now. */
  const zoneNow = () => queryClient.fetchQuery({ ...recordsQueryOptions(api, zoneName), staleTime: 0 });
  /**
   * The zone as it stood just after `entry`: the zone now, walked back through the history read again with it, so
   * that a change made since the tab loaded is undone too.
   */
  const zoneAtEntry = async (entry: HistoryEntry) => {
    const [now, fresh] = await Promise.all([zoneNow(), history.refetch()]);
    const newestFirst = fresh.data?.pages.flatMap((p) => p.entries) ?? entries;
    return { now, target: zoneAt(now, newestFirst, entry.id) };
  };

  return {
    zoneName,
    canRead,
    signIn: () => void session.requestSignIn().catch(() => undefined),
    history,
    unsupported,
    entries,
    shown,
    filter,
    setFilter,
    preparing,
    prepareRevert: async (entry: HistoryEntry) => setPreparing({ title: 'Revert this change', steps: revertSteps(entry, await zoneNow()) }),
    prepareRestore: async (entry: HistoryEntry) => {
      const { now, target } = await zoneAtEntry(entry);
      if (target) setPreparing({ title: `Restore the zone as it was at serial ${entry.serial}`, steps: restoreSteps(target, now) });
    },
    cancelPreparing: () => setPreparing(null),
    /** Puts the prepared steps (conflicts as settled) into the change set; the records tab shows them as a diff to sign. */
    addToChangeSet: (resolutions: Record<string, Resolution>) => {
      if (preparing) updateDraft((draft) => applySteps(draft, preparing.steps, resolutions));
      setPreparing(null);
    },
    downloadHistory: async () => downloadText(await exportZoneHistory(zoneName), `${zoneName}-history.ndjson`, 'application/x-ndjson'),
    downloadZoneAt: async (entry: HistoryEntry) => {
      const { target } = await zoneAtEntry(entry);
      if (target) downloadText(printZoneFile(zoneName, target), `${zoneName}-serial-${entry.serial}.zone`, 'text/plain');
    },
  };
}

