import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { printZoneFileInSteps } from '#core/dns/zone-file.ts';
import { isManaged, managedByOf, type ListedType } from '#core/wire/dns.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { isServiceTrouble } from '@/lib/query-recovery.ts';
import { useSteps } from '@/lib/use-steps.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { recordsQueryOptions } from './api/get-records.ts';
import type { RecordInput } from './model/record-form.ts';
import { SINGLE_RECORD_OPERATIONS } from './model/signing-plan.ts';
import { DEFAULT_VIEW, firstByName, listItems, narrowingFilter, markedRows, sortedBy, sortRows, storedRecords, typesIn, type SortKey, type TableView } from './model/table.ts';
import { listedRecordLike } from '#core/dns/listed.ts';
import { markSearchInput, markTableRendered } from './perf.ts';
import { useChangeSet } from './use-change-set.ts';
import { bulkAddTag, bulkDelete, bulkRemoveTag, bulkTtl, selectedRecords } from './model/bulk.ts';
import { isStoredRecord } from '#core/wire/dns.ts';
import { useRecordForm } from './use-record-form.ts';

const UNPARK_OPERATIONS = ['toggleDomainParking'] as const;

/** More rows than any screen shows at once (the table renders those in view plus a dozen each side). */
const FIRST_SCREEN_ROWS = 200;

/** Whether a key press belongs to a field being typed in, not to the page's shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** `/` focuses the search and `n` opens the add form, unless a dialog is open or a field has the keys. */
function useShortcuts(enabled: boolean, actions: { search: () => void; add: () => void }) {
  const { search, add } = actions;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === '/') {
        event.preventDefault();
        search();
      } else if (event.key === 'n') {
        event.preventDefault();
        add();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled, search, add]);
}

/**
 * The records page's controller: the zone's records, who may change them, the table's view and its derived lists,
 * the record form (use-record-form.ts), the change set (use-change-set.ts), the zone file and template dialogs, and
 * the keyboard shortcuts. RecordsPage.tsx only lays out what this returns.
 */
export function useRecordsPage(domain: string, { readOnly = false }: { readOnly?: boolean } = {}) {
  const zoneName = domain.toLowerCase();
  const api = useApi();
  const session = useWalletSession();
  const { address } = session;
  const { apiKey } = useSettings();
  // Signed out means read-only here: a write waits for signing in again (an API key is the stated exception).
  const signedOut = session.status !== 'signed-in' && !apiKey;
  // Asked when the page opens, so no signature waits on them; the notices read them (the change set asks its own).
  const signingTypes = useSigningTypes(SINGLE_RECORD_OPERATIONS);
  const records = useQuery(recordsQueryOptions(api, zoneName));
  const serviceAway = records.isError && isServiceTrouble(records.error);

  const all = useMemo(() => records.data ?? [], [records.data]);
  // Rows shown while a write is on the way are not part of the zone the rules and plans look at.
  const zone = useMemo(() => storedRecords(all), [all]);
  // Each by its own marker: a forwarded zone's managed apex addresses are not parking's.
  const parked = useMemo(() => zone.some((r) => managedByOf(r) === 'parking'), [zone]);
  const forwarding = useMemo(() => zone.some((r) => managedByOf(r) === 'forwarding'), [zone]);

  const who = { zoneName, zone, parked, forwarding, address, apiKey: Boolean(apiKey), signedOut, signingTypes };
  const changeSet = useChangeSet(who);
  const recordForm = useRecordForm({ ...who, serviceAway, changeSet });
  // On a parked zone the form may offer to unpark first: parking's types are asked as it opens.
  useSigningTypes(UNPARK_OPERATIONS, parked && recordForm.form !== null);

  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  // Only edits and deletions mark rows: an addition to the change set leaves a 10,000-row table alone.
  const { updates, deletes } = changeSet.draft;
  // A large zone's first screen is made from the records that come first by name alone (no row made for the other
  // 100,000); every row follows in a transition right after that frame. Only for the page's first list in the
  // default view: the scroll is at the top then, so the rows in view are those first rows.
  const [firstScreenShown, setFirstScreenShown] = useState(false);
  const firstScreen = useMemo(() => {
    const defaultView = view.query === '' && view.type === 'all' && view.sort === 'name' && view.direction === 'asc' && !view.groupByType;
    return !firstScreenShown && defaultView && all.length > FIRST_SCREEN_ROWS ? firstByName(all, FIRST_SCREEN_ROWS) : null;
  }, [firstScreenShown, all, view]);
  const rows = useMemo(() => markedRows(firstScreen ?? all, { updates, deletes }, zoneName), [firstScreen, all, updates, deletes, zoneName]);
  useEffect(() => {
    if (firstScreen) startTransition(() => setFirstScreenShown(true));
  }, [firstScreen]);
  const sorted = useMemo(() => sortRows(rows, view.sort, view.direction), [rows, view.sort, view.direction]);
  const filter = useMemo(narrowingFilter, []);
  const filtered = useMemo(() => filter(sorted, view.query, view.type), [filter, sorted, view.query, view.type]);
  const items = useMemo(() => listItems(filtered, view.groupByType), [filtered, view.groupByType]);
  const typesInZone = useMemo(() => typesIn(all), [all]);
  // Runs after the table's rows are committed to the DOM (child layout effects run first): the bench's marks, only in
  // the build bench:records makes (VITE_BENCH_MARKS); the shipped bundle has neither the marks nor perf.ts.
  useLayoutEffect(() => {
    if (import.meta.env.VITE_BENCH_MARKS === 'true') markTableRendered(filtered.length, records.dataUpdatedAt);
  }, [filtered, view.query, records.dataUpdatedAt]);

  const [zoneFile, setZoneFile] = useState<'import' | 'export' | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [providerImportOpen, setProviderImportOpen] = useState(false);
  // New or empty: nothing of the owner's own yet (a new domain's parking records are managed), so the page offers the import first.
  const fresh = useMemo(() => !zone.some((r) => !isManaged(r)), [zone]);
  // Written a few thousand records at a time while the dialog is open: 100,000 records take a second or two.
  const exporting = useSteps(() => (zoneFile !== null ? printZoneFileInSteps(zoneName, zone.map(listedRecordLike)) : null), [zoneFile, zone, zoneName]);

  // Records selected for a change together (bulk.ts): ids, kept while they stay in the zone.
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

  const searchRef = useRef<HTMLInputElement>(null);
  const anyDialog = recordForm.form !== null || recordForm.deleting !== null || zoneFile !== null || templatesOpen || providerImportOpen || changeSet.reviewing;
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  useShortcuts(!anyDialog, { search: focusSearch, add: readOnly ? () => undefined : recordForm.openAdd });

  return {
    zoneName,
    records,
    zone,
    parked,
    forwarding,
    access: {
      address,
      signedOut,
      /** Not signed in, yet the API key in Settings keeps acting for its wallet. */
      apiKeyActs: Boolean(apiKey) && session.status !== 'signed-in',
      serviceAway,
    },
    table: {
      view,
      rows,
      /** Every record of the zone, whether or not its row is made yet. */
      total: all.length,
      /** The first screen is shown while the rest of the rows are made (a moment, for a large zone). */
      settling: firstScreen !== null,
      filtered,
      items,
      typesInZone,
      searchRef,
      sort: (key: SortKey) => setView((v) => sortedBy(v, key)),
      search: (query: string) => {
        if (import.meta.env.VITE_BENCH_MARKS === 'true') markSearchInput();
        setView((v) => ({ ...v, query }));
      },
      clearSearch: () => setView((v) => ({ ...v, query: '' })),
      filterType: (type: ListedType | 'all') => setView((v) => ({ ...v, type })),
      groupByType: (groupByType: boolean) => setView((v) => ({ ...v, groupByType })),
    },
    selection: {
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
    },
    recordForm,
    changeSet,
    zoneFile: {
      open: zoneFile,
      exported: exporting.result,
      exportProgress: exporting.progress,
      show: (tab: 'import' | 'export') => setZoneFile(tab),
      import: (list: RecordInput[]) => {
        changeSet.importRecords(list);
        setZoneFile(null);
      },
      close: () => setZoneFile(null),
    },
    providerImport: {
      open: providerImportOpen,
      /** Whether the zone has nothing of the owner's yet: the page then offers the import before anything else. */
      fresh,
      show: () => setProviderImportOpen(true),
      import: (list: RecordInput[]) => {
        changeSet.importRecords(list);
        setProviderImportOpen(false);
      },
      close: () => setProviderImportOpen(false),
    },
    templates: {
      open: templatesOpen,
      show: () => setTemplatesOpen(true),
      add: (list: RecordInput[]) => {
        changeSet.addRecords(list);
        setTemplatesOpen(false);
      },
      close: () => setTemplatesOpen(false),
    },
  };
}
