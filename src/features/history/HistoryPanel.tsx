import type { HistoryEntry } from '#core/wire/history.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, EmptyState, Notice, Spinner, useToast } from '@/ui/index.ts';
import { HistoryEntryItem } from './components/HistoryEntryItem.tsx';
import { HistoryFilters } from './components/HistoryFilters.tsx';
import { RevertDialog } from './components/RevertDialog.tsx';
import { useHistory } from './use-history.ts';

/**
 * The History tab of a domain: every change of the zone, newest first, who made it and how it was signed, each
 * verifiable in the browser and revertible through the change set. `onChangeSet` shows the records tab, where the
 * change set is reviewed and signed.
 */
export default function HistoryPanel({ domain, recordId, onChangeSet }: { domain: string; recordId: string | null; onChangeSet: () => void }) {
  const h = useHistory(domain, recordId);
  const { toast } = useToast();
  const { history } = h;

  if (!h.canRead) {
    return <Notice title="Sign in to see the history">Only the owner of {h.zoneName} reads its history.<Button onClick={h.signIn}>Sign in</Button></Notice>;
  }
  if (h.unsupported) return <Notice title="No history here">This service keeps no history of {h.zoneName}'s changes.</Notice>;
  if (history.isPending) return <Spinner label="Loading the history" />;
  if (history.isError) {
    const explained = explainError(history.error, { domain: h.zoneName });
    return (
      <Notice tone="danger" title="The history could not be loaded" actions={<Button onClick={() => void history.refetch()}>Try again</Button>}>
        {explained.title}
        {explained.description ? `: ${explained.description}` : ''}
      </Notice>
    );
  }

  const latestId = h.entries[0]?.id;
  const failed = (e: Error) => toast({ tone: 'error', title: 'The zone could not be read', description: e.message });
  const actions = {
    onRevert: (entry: HistoryEntry) => void h.prepareRevert(entry).catch(failed),
    onRestore: (entry: HistoryEntry) => void h.prepareRestore(entry).catch(failed),
    onZoneFile: (entry: HistoryEntry) => void h.downloadZoneAt(entry).catch(failed),
  };

  return (
    <section aria-labelledby="history-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="history-title" className="text-lg font-semibold">
          History
        </h2>
        <Button variant="secondary" onClick={() => void h.downloadHistory().catch((e: Error) => toast({ tone: 'error', title: 'The history could not be downloaded', description: e.message }))}>
          Download history (NDJSON)
        </Button>
      </div>
      <HistoryFilters filter={h.filter} onChange={h.setFilter} />
      {h.entries.length === 0 ? (
        <EmptyState title="No changes yet" description={`Changes to ${h.zoneName} will be listed here, each with who made it and its signature.`} />
      ) : h.shown.length === 0 ? (
        <p role="status" className="text-sm">No change matches these filters{history.hasNextPage ? ' in the changes loaded so far' : ''}.</p>
      ) : (
        <ol className="space-y-2" aria-label="Changes, newest first">
          {h.shown.map((entry) => (
            <HistoryEntryItem key={entry.id} entry={entry} actions={actions} latest={entry.id === latestId} />
          ))}
        </ol>
      )}
      {history.hasNextPage ? (
        <Button variant="secondary" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
          Show older changes
        </Button>
      ) : null}
      <RevertDialog
        preparing={h.preparing}
        zoneName={h.zoneName}
        onClose={h.cancelPreparing}
        onAdd={(resolutions) => {
          h.addToChangeSet(resolutions);
          toast({ tone: 'info', title: 'Added to the change set', description: 'Review the diff, then sign it like any change.', durationMs: 4000 });
          onChangeSet();
        }}
      />
    </section>
  );
}
