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
      <div className="flex flex-wrap gap-2">
        {readOnly ? null : (
          <>
            <Button variant="secondary" onClick={onTemplates}>
              Templates
            </Button>
            <Button variant={fresh ? 'primary' : 'secondary'} onClick={onProviderImport}>
              {fresh ? 'Import from your current provider' : 'Import from provider'}
            </Button>
            <Button variant="secondary" onClick={() => onZoneFile('import')}>
              Import zone file
            </Button>
          </>
        )}
        <Button variant="secondary" onClick={() => onZoneFile('export')}>
          Export zone file
        </Button>
        {readOnly ? null : <Button onClick={onAdd}>Add record</Button>}
      </div>
    </div>
  );
}
