import { Button } from '@/ui/index.ts';

export interface RecordsHeaderProps {
  count: number;
  parked: boolean;
  onTemplates: () => void;
  onZoneFile: (tab: 'import' | 'export') => void;
  /** Opens "Import from your current provider" (the scan of the old name server). */
  onProviderImport: () => void;
  /** Nothing of the owner's in the zone yet: the import from the old provider is offered first, in words. */
  fresh: boolean;
  onAdd: () => void;
  /** A reader who may not change records (a viewer's grant): only the export is offered. */
  readOnly?: boolean;
}

/** The records page's title, its count and shortcuts, and the ways to add records. */
export function RecordsHeader({ count, parked, onTemplates, onZoneFile, onProviderImport, fresh, onAdd, readOnly = false }: RecordsHeaderProps) {
  const secondary = (
    <>
      {readOnly ? null : (
        <>
          <Button variant="secondary" onClick={onTemplates}>
            Templates
          </Button>
          {fresh ? null : (
            <Button variant="secondary" onClick={onProviderImport}>
              Import from provider
            </Button>
          )}
          <Button variant="secondary" onClick={() => onZoneFile('import')}>
            Import zone file
          </Button>
        </>
      )}
      <Button variant="secondary" onClick={() => onZoneFile('export')}>
        Export zone file
      </Button>
    </>
  );
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h2 id="records-title" className="text-xl font-semibold">
          DNS records
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {count} {count === 1 ? 'record' : 'records'}
          {parked ? ' · parked: the parking records are managed for you' : ''} · press <kbd>/</kbd> to search{readOnly ? '' : <>, <kbd>n</kbd> to add</>}
        </p>
      </div>
      <div className="flex flex-wrap items-start gap-2">
        {fresh && !readOnly ? <Button onClick={onProviderImport}>Import from your current provider</Button> : null}
        {/* The less frequent ways in: in a row from a small tablet up, behind "More" on a phone, so the records stay on its first screen. */}
        <div className="hidden flex-wrap gap-2 sm:flex">{secondary}</div>
        <details className="relative sm:hidden">
          <summary className="inline-flex h-10 cursor-pointer list-none items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium dark:border-slate-600 dark:bg-slate-900">
            More
          </summary>
          <div className="absolute right-0 z-20 mt-1 flex w-60 flex-col gap-1 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">{secondary}</div>
        </details>
        {readOnly ? null : <Button onClick={onAdd}>Add record</Button>}
      </div>
    </div>
  );
}
