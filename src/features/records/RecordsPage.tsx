import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { printZoneFile } from '@/core/dns/zone-file.ts';
import { RECORD_TYPES, type DnsRecord, type RecordType } from '@/core/wire/dns.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { isServiceTrouble, staleSince } from '@/lib/query-recovery.ts';
import { requestSignIn, useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { chooseSigning } from '@/lib/signing/signing-choice.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Button, Dialog, EmptyState, Notice, Select, Spinner, Switch, TextField, useToast } from '@/ui/index.ts';
import { useCreateRecord } from './api/create-record.ts';
import { useDeleteRecord } from './api/delete-record.ts';
import { recordsQueryOptions } from './api/get-records.ts';
import { PENDING_PREFIX } from './api/optimistic.ts';
import { useUpdateRecord } from './api/update-record.ts';
import { useToggleParking } from '@/features/parking/index.ts';
import { ApplyDialog } from './components/ApplyDialog.tsx';
import { ChangeSetPanel } from './components/ChangeSetPanel.tsx';
import { DeleteDialog } from './components/DeleteDialog.tsx';
import { RecordForm, type SubmitMode, type SubmitProblem } from './components/RecordForm.tsx';
import { RecordsTable } from './components/RecordsTable.tsx';
import { TemplatesDialog } from './components/TemplatesDialog.tsx';
import { ZoneFileDialog } from './components/ZoneFileDialog.tsx';
import { problemFromError } from './errors.ts';
import { addCreate, addCreates, addDelete, diffDraft, draftSize, EMPTY_DRAFT, planBatches, removeItem, replaceCreate, setUpdate, type DiffEntry, type Draft, type Plan } from './model/change-set.ts';
import { recordInWords } from './model/describe.ts';
import { planSigning, RECORD_OPERATIONS, singleWriteNotes } from './model/signing-plan.ts';
import { blankFormValues, toFormValues, type RecordFormValues, type RecordInput } from './model/record-form.ts';
import { isManagedRecord } from '@/core/dns/parking.ts';
import { DEFAULT_VIEW, filterRows, listItems, sortRows, toRow, type Row, type SortKey, type TableView } from './model/table.ts';
import { checkDraft, checkOne, toRecordLike, type Problem } from './model/zone-check.ts';
import { markSearchInput, markTableRendered } from './perf.ts';
import { useApplyChangeSet } from './use-apply-change-set.ts';
import { useDraft } from './use-draft.ts';

const EMPTY_PLAN: Plan = { batches: [], skipped: [] };

type FormState =
  | { mode: 'add'; initial: RecordFormValues }
  | { mode: 'edit'; initial: RecordFormValues; record: DnsRecord }
  | { mode: 'draft-create'; initial: RecordFormValues; key: string }
  | { mode: 'draft-update'; initial: RecordFormValues; record: DnsRecord };

/** The draft with the form's change in it, and the key of the changed item. */
function withFormChange(draft: Draft, form: FormState, record: RecordInput): { draft: Draft; key: string | null } {
  if (form.mode === 'draft-create') return { draft: replaceCreate(draft, form.key, record), key: form.key };
  if (form.mode === 'edit' || form.mode === 'draft-update') {
    const next = setUpdate(draft, form.record, record);
    return { draft: next, key: next.updates.some((u) => u.id === form.record.id) ? `u:${form.record.id}` : null };
  }
  const next = addCreate(draft, record);
  return { draft: next, key: next.creates.find((c) => c.record === record)?.key ?? null };
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** The DNS records of one domain: table, record forms, change set, zone files and templates. */
export default function RecordsPage({ domain }: { domain: string }) {
  const zoneName = domain.toLowerCase();
  const api = useApi();
  const session = useWalletSession();
  const { address } = session;
  const { apiKey } = useSettings();
  // Signed out means read-only here: a write waits for signing in again (an API key is the stated exception).
  const signedOut = session.status !== 'signed-in' && !apiKey;
  const { toast } = useToast();
  // Asked when the page opens, so no signature waits on them; the plans and notices below read them.
  const signingTypes = useSigningTypes(RECORD_OPERATIONS);
  const records = useQuery(recordsQueryOptions(api, zoneName));
  const [draft, updateDraft] = useDraft(address, zoneName);
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  const [form, setForm] = useState<FormState | null>(null);
  const [deleting, setDeleting] = useState<{ row: Row; problem: SubmitProblem['formError'] | null } | null>(null);
  const [zoneFile, setZoneFile] = useState<'import' | 'export' | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [applyOpen, setApplyOpen] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);

  const create = useCreateRecord(zoneName);
  const update = useUpdateRecord(zoneName);
  const remove = useDeleteRecord(zoneName);
  const unpark = useToggleParking(zoneName, address);
  const { apply, running } = useApplyChangeSet(zoneName, address, updateDraft);

  const all = useMemo(() => records.data ?? [], [records.data]);
  // Rows shown while a write is on the way are not part of the zone the rules and plans look at.
  const zone = useMemo(() => all.filter((r) => !r.id.startsWith(PENDING_PREFIX)), [all]);
  const parked = useMemo(() => zone.some(isManagedRecord), [zone]);
  const serviceAway = records.isError && isServiceTrouble(records.error);

  const rows = useMemo(() => {
    const updated = new Set(draft.updates.map((u) => u.id));
    const deleted = new Set(draft.deletes.map((d) => d.id));
    return all.map((record) => {
      const row = toRow(record, zoneName);
      if (record.id.startsWith(PENDING_PREFIX)) row.pending = 'add';
      else if (deleted.has(record.id)) row.pending = 'remove';
      else if (updated.has(record.id)) row.pending = 'change';
      return row;
    });
  }, [all, draft.updates, draft.deletes, zoneName]);
  const sorted = useMemo(() => sortRows(rows, view.sort, view.direction), [rows, view.sort, view.direction]);
  const filtered = useMemo(() => filterRows(sorted, view.query, view.type), [sorted, view.query, view.type]);
  const items = useMemo(() => listItems(filtered, view.groupByType), [filtered, view.groupByType]);
  // Runs after the table's rows are committed to the DOM (child layout effects run first): the bench's marks.
  useLayoutEffect(() => markTableRendered(filtered.length, records.dataUpdatedAt), [filtered, view.query, records.dataUpdatedAt]);
  const typesInZone = useMemo(() => RECORD_TYPES.filter((t) => rows.some((r) => r.type === t)), [rows]);

  // The draft's views cost a pass over the zone each: only when there is a draft.
  const hasDraft = draftSize(draft) > 0;
  const diff = useMemo(() => (hasDraft ? diffDraft(draft, zone) : []), [hasDraft, draft, zone]);
  const problems = useMemo(() => (hasDraft ? checkDraft(draft, zone, zoneName, parked) : new Map<string, Problem>()), [hasDraft, draft, zone, zoneName, parked]);
  const plan = useMemo(() => (hasDraft ? planBatches(draft, zone, zoneName) : EMPTY_PLAN), [hasDraft, draft, zone, zoneName]);
  const signing = useMemo(() => planSigning(plan, signingTypes, { apiKey: Boolean(apiKey) }), [plan, signingTypes, apiKey]);

  const anyDialog = form !== null || deleting !== null || zoneFile !== null || templatesOpen || applyOpen;
  const openAdd = useCallback(() => setForm({ mode: 'add', initial: blankFormValues('A', '@') }), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (anyDialog || isTyping(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === '/') {
        event.preventDefault();
        searchRef.current?.focus();
      } else if (event.key === 'n') {
        event.preventDefault();
        openAdd();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [anyDialog, openAdd]);

  const onSort = (key: SortKey) => setView((v) => ({ ...v, sort: key, direction: v.sort === key && v.direction === 'asc' ? 'desc' : 'asc' }));

  /** A quick change is checked alone against the zone; a draft change together with the rest of the draft. */
  const checkForm = (record: RecordInput, how: SubmitMode) => {
    if (!form) return null;
    if (how === 'sign' || how === 'unpark-and-sign') {
      // Unparking first: the record is checked against the zone as it will be, parking records gone.
      const against = how === 'sign' ? zone : zone.filter((r) => !isManagedRecord(r));
      const asParked = how === 'sign' && parked;
      if (form.mode === 'add') return checkOne({ creates: [record], updates: [], deletes: [] }, against, zoneName, asParked);
      if (form.mode === 'edit') return checkOne({ creates: [], updates: [{ ...record, id: form.record.id }], deletes: [] }, against, zoneName, asParked);
      return null;
    }
    const { draft: next, key } = withFormChange(draft, form, record);
    return key ? (checkDraft(next, zone, zoneName, parked).get(key) ?? null) : null;
  };

  const submitForm = async (record: RecordInput, how: SubmitMode): Promise<SubmitProblem | null> => {
    if (!form) return null;
    if (how === 'draft' || form.mode === 'draft-create' || form.mode === 'draft-update') {
      updateDraft((d) => withFormChange(d, form, record).draft);
      setForm(null);
      toast({ tone: 'info', title: 'Added to the change set', description: recordInWords(record, zoneName), durationMs: 3000 });
      return null;
    }
    if (signedOut) {
      // Kept where it survives the sign-in (the form is a modal the sign-in dialog cannot sit over).
      updateDraft((d) => withFormChange(d, form, record).draft);
      setForm(null);
      toast({ tone: 'info', title: 'Kept in the change set: sign in to send it', description: `You are signed out, so nothing was signed. ${recordInWords(record, zoneName)}` });
      requestSignIn();
      return null;
    }
    // A signature the service cannot receive is a wasted one: ask for none while it is known to be away.
    if (serviceAway) {
      return {
        formError: {
          title: 'The service cannot be reached',
          description: 'Nothing was signed. Your record is still here: try again when the service is back, or add it to the change set.',
        },
      };
    }
    if (how === 'unpark-and-sign') {
      try {
        await unpark.mutateAsync({ enableParking: false, overrideExistingRecords: false });
      } catch (error) {
        return problemFromError(error, { domain: zoneName, address });
      }
    }
    try {
      if (form.mode === 'edit') await update.mutateAsync({ id: form.record.id, record });
      else await create.mutateAsync(record);
      setForm(null);
      toast({
        tone: 'success',
        title: `${how === 'unpark-and-sign' ? 'Unparked; r' : 'R'}ecord ${form.mode === 'edit' ? 'saved' : 'added'}`,
        description: recordInWords(record, zoneName),
        durationMs: 4000,
      });
      return null;
    } catch (error) {
      const problem = problemFromError(error, { domain: zoneName, address });
      // Parking is already off: say so, so that the next try is only the record.
      if (how === 'unpark-and-sign' && problem.formError) {
        const title = problem.formError.title;
        problem.formError = {
          ...problem.formError,
          title: `Parking is off now, but the record was not ${form.mode === 'edit' ? 'saved' : 'added'}`,
          description: `${title}. Your record is still here: ${form.mode === 'edit' ? 'Save and sign' : 'Add and sign'} tries it alone.`,
        };
      }
      return problem;
    }
  };

  const signDelete = async () => {
    if (!deleting) return;
    const { row } = deleting;
    if (signedOut) {
      setDeleting(null);
      toast({ tone: 'info', title: 'Sign in to delete records', description: 'You are signed out, so nothing was signed or deleted.' });
      requestSignIn();
      return;
    }
    try {
      await remove.mutateAsync(row.id);
      setDeleting(null);
      toast({ tone: 'success', title: 'Record deleted', description: recordInWords(row.record, zoneName), durationMs: 4000 });
    } catch (error) {
      setDeleting({ row, problem: problemFromError(error, { domain: zoneName, address }).formError ?? null });
    }
  };

  const editDraftEntry = (entry: DiffEntry) => {
    if (entry.kind === 'add') setForm({ mode: 'draft-create', key: entry.key, initial: toFormValues(entry.after) });
    else if (entry.kind === 'change' && entry.before) setForm({ mode: 'draft-update', record: entry.before, initial: toFormValues(entry.after) });
  };

  const runApply = async () => {
    if (signedOut) {
      setApplyOpen(false);
      requestSignIn();
      return;
    }
    const result = await apply({ batches: signing.batches, skipped: plan.skipped });
    if (result.status === 'applied') {
      setApplyOpen(false);
      toast({ tone: 'success', title: 'Change set applied', description: `${result.batches} ${result.batches === 1 ? 'signature' : 'signatures'}; the table shows the zone as it is now.`, durationMs: 5000 });
    } else if (result.status === 'declined') {
      setApplyOpen(false);
      toast({ tone: 'info', title: 'Signature declined', description: 'Nothing more was sent. What did not land stays in the change set.', durationMs: 5000 });
    } else {
      setApplyOpen(false);
      toast({ tone: 'error', title: 'Part of the change set was refused', description: `${result.message} What did not land stays in the change set, with the reason.` });
    }
  };

  /** What the service's types mean for a record signed on its own, for the form's notice. */
  const formSigningNotes = (record: RecordInput): string[] => {
    if (!form || apiKey) return [];
    const method = form.mode === 'edit' ? 'updateDnsRecord' : 'createDnsRecord';
    const types = signingTypes[method];
    if (!types) return [];
    const payload = form.mode === 'edit' ? { id: form.record.id, zoneName, ...record } : { zoneName, ...record };
    return singleWriteNotes(chooseSigning(method, types, payload), record.type);
  };

  const describeId = (id: string) => {
    const record = zone.find((r) => r.id === id);
    return record ? recordInWords(record, zoneName) : id;
  };
  const exported = useMemo(() => (zoneFile !== null ? printZoneFile(zoneName, zone.map(toRecordLike)) : ''), [zoneFile, zone, zoneName]);

  if (records.isPending) return <Spinner label="Loading DNS records" />;
  // Only without any records to show does the error take the place of the table; cached records stay, marked stale.
  if (records.isError && records.data === undefined) {
    const explained = explainError(records.error, { domain: zoneName, address });
    return (
      <Notice tone="danger" title={`The records of ${zoneName} could not be loaded`} actions={<Button onClick={() => void records.refetch()}>Try again</Button>}>
        {explained.title}
        {explained.description ? `: ${explained.description}` : ''}
      </Notice>
    );
  }

  const formTitle = form?.mode === 'add' ? 'Add a record' : form?.mode === 'draft-create' ? 'Edit a pending record' : 'Edit record';
  return (
    <section aria-labelledby="records-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="records-title" className="text-xl font-semibold">
            DNS records
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {zone.length} {zone.length === 1 ? 'record' : 'records'}
            {parked ? ' · parked: the parking records are managed for you' : ''} · press <kbd>/</kbd> to search, <kbd>n</kbd> to add
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setTemplatesOpen(true)}>
            Templates
          </Button>
          <Button variant="secondary" onClick={() => setZoneFile('import')}>
            Import zone file
          </Button>
          <Button variant="secondary" onClick={() => setZoneFile('export')}>
            Export zone file
          </Button>
          <Button onClick={openAdd}>Add record</Button>
        </div>
      </div>

      {signedOut ? (
        <Notice
          tone="info"
          title="Signed out: these records are read-only"
          actions={
            <Button size="sm" onClick={requestSignIn}>
              Sign in
            </Button>
          }
        >
          Changes wait until you sign in again; a change set you build meanwhile is kept.
        </Notice>
      ) : apiKey && session.status !== 'signed-in' ? (
        <Notice tone="info" title="Not signed in, but your API key acts for you">
          The API key saved in Settings keeps acting for its wallet after sign-out, so changes still work. Remove it in Settings to stop that.
        </Notice>
      ) : null}

      {records.isError && records.data !== undefined ? (
        <Notice
          tone="warning"
          title={`Stale since ${staleSince(records.dataUpdatedAt)}: ${explainError(records.error, { domain: zoneName, address }).title.replace(/^The/, 'the')}`}
          actions={
            <Button size="sm" loading={records.isFetching} onClick={() => void records.refetch()}>
              Try again
            </Button>
          }
        >
          These are the records as last loaded. Your change set and any open form are kept
          {serviceAway ? '; nothing will be signed until the service answers again' : ''}. This page checks again by itself.
        </Notice>
      ) : null}

      {hasDraft ? (
        <ChangeSetPanel
          zoneName={zoneName}
          diff={diff}
          problems={problems}
          onReview={() => setApplyOpen(true)}
          onEdit={editDraftEntry}
          onRemove={(key) => updateDraft((d) => removeItem(d, key))}
          onDiscard={() => updateDraft(() => EMPTY_DRAFT)}
        />
      ) : null}

      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <TextField
            ref={searchRef}
            type="search"
            label="Search records"
            placeholder="Name or content, e.g. www or 192.0.2"
            value={view.query}
            onChange={(event) => {
              markSearchInput();
              setView({ ...view, query: event.target.value });
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setView({ ...view, query: '' });
            }}
          />
        </div>
        <div className="w-40">
          <Select
            label="Type"
            value={view.type}
            onChange={(event) => setView({ ...view, type: event.target.value as RecordType | 'all' })}
            options={[{ value: 'all', label: 'All types' }, ...typesInZone.map((t) => ({ value: t, label: t }))]}
          />
        </div>
        <div className="pb-2">
          <Switch label="Group by type" checked={view.groupByType} onChange={(groupByType) => setView({ ...view, groupByType })} />
        </div>
      </div>

      {zone.length === 0 && !records.isFetching ? (
        <EmptyState title="No records yet" description={`Add a record, use a template, or import a zone file to set up ${zoneName}.`} action={<Button onClick={openAdd}>Add record</Button>} />
      ) : filtered.length === 0 ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          No record matches{view.query ? ` “${view.query}”` : ''}
          {view.type !== 'all' ? ` of type ${view.type}` : ''}.
        </p>
      ) : (
        <>
          <p role="status" className="sr-only">
            {filtered.length} of {rows.length} records shown
          </p>
          <RecordsTable
            items={items}
            total={rows.length}
            view={view}
            onSort={onSort}
            busy={records.isFetching}
            onEdit={(row) => setForm({ mode: 'edit', record: row.record, initial: toFormValues(row.record) })}
            onDelete={(row) => setDeleting({ row, problem: null })}
          />
        </>
      )}

      <Dialog open={form !== null} onClose={() => setForm(null)} title={formTitle} description={`In ${zoneName}`}>
        {form ? (
          <RecordForm
            key={`${form.mode}-${'record' in form ? form.record.id : 'key' in form ? form.key : 'new'}`}
            zoneName={zoneName}
            initial={form.initial}
            mode={form.mode === 'add' || form.mode === 'draft-create' ? 'add' : 'edit'}
            canSignNow={form.mode === 'add' || form.mode === 'edit'}
            checkZone={checkForm}
            signingNotes={formSigningNotes}
            onSubmit={submitForm}
            parkedConflict={parked ? (record) => record.name === '@' && (record.type === 'A' || record.type === 'AAAA') : undefined}
            onCancel={() => setForm(null)}
          />
        ) : null}
      </Dialog>

      <DeleteDialog
        zoneName={zoneName}
        row={deleting?.row ?? null}
        busy={remove.isPending}
        problem={deleting?.problem ?? null}
        onSign={() => void signDelete()}
        onDraft={() => {
          if (deleting) updateDraft((d) => addDelete(d, deleting.row.id));
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />

      {zoneFile ? (
        <ZoneFileDialog
          open
          zoneName={zoneName}
          zone={zone}
          exported={exported}
          initialTab={zoneFile}
          onImport={(list) => {
            updateDraft((d) => addCreates(d, list));
            setZoneFile(null);
            toast({ tone: 'info', title: `${list.length} ${list.length === 1 ? 'record' : 'records'} added to the change set`, description: 'Review them below, then apply.', durationMs: 4000 });
          }}
          onClose={() => setZoneFile(null)}
        />
      ) : null}

      {templatesOpen ? (
        <TemplatesDialog
          open
          zoneName={zoneName}
          zone={zone}
          onAdd={(list) => {
            updateDraft((d) => addCreates(d, list));
            setTemplatesOpen(false);
          }}
          onClose={() => setTemplatesOpen(false)}
        />
      ) : null}

      <ApplyDialog open={applyOpen} zoneName={zoneName} plan={plan} signing={signing} describeId={describeId} running={running} onApply={() => void runApply()} onClose={() => setApplyOpen(false)} />
    </section>
  );
}
