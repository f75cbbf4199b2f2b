import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { printZoneFileInSteps } from '#core/dns/zone-file.ts';
import { isManaged, managedByOf } from '#core/wire/dns.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { isServiceTrouble } from '@/lib/query-recovery.ts';
import { useSteps } from '@/lib/use-steps.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { recordsQueryOptions } from './api/get-records.ts';
import type { RecordInput } from './model/record-form.ts';
import { SINGLE_RECORD_OPERATIONS } from './model/signing-plan.ts';
import { storedRecords } from './model/table.ts';
import { listedRecordLike } from '#core/dns/listed.ts';
import { useChangeSet } from './use-change-set.ts';
import { useRecordForm } from './use-record-form.ts';
import { useRecordSelection } from './use-record-selection.ts';
import { useRecordsTable } from './use-records-table.ts';

const UNPARK_OPERATIONS = ['toggleDomainParking'] as const;

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
 * The records page's controller: the zone's records, who may change them, the table's view and its derived lists
 * (use-records-table.ts), the selection (use-record-selection.ts), the record form (use-record-form.ts), the change
 * set (use-change-set.ts), the zone file and template dialogs, and the keyboard shortcuts. RecordsPage.tsx only lays out what this returns.
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

  const table = useRecordsTable({ all, draft: changeSet.draft, zoneName, dataUpdatedAt: records.dataUpdatedAt });

  const [zoneFile, setZoneFile] = useState<'import' | 'export' | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [providerImportOpen, setProviderImportOpen] = useState(false);
  // New or empty: nothing of the owner's own yet (a new domain's parking records are managed), so the page offers the import first.
  const fresh = useMemo(() => !zone.some((r) => !isManaged(r)), [zone]);
  // Written a few thousand records at a time while the dialog is open: 100,000 records take a second or two.
  const exporting = useSteps(() => (zoneFile !== null ? printZoneFileInSteps(zoneName, zone.map(listedRecordLike)) : null), [zoneFile, zone, zoneName]);

  const selection = useRecordSelection({ zone, filtered: table.filtered, changeSet });

  const anyDialog = recordForm.form !== null || recordForm.deleting !== null || zoneFile !== null || templatesOpen || providerImportOpen || changeSet.reviewing;
  const { searchRef } = table;
  const focusSearch = useCallback(() => searchRef.current?.focus(), [searchRef]);
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
    table,
    selection,
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
export type RecordsPageState = ReturnType<typeof useRecordsPage>;
