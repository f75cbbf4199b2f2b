import { RECORD_TYPES, type RecordType } from '#core/wire/dns.ts';
import { Button, Select, TextField } from '@/ui/index.ts';
import type { HistoryFilter } from '../model/describe-entry.ts';

/** Filters of the timeline: a record's name, its type, or one record's own history (cleared here). */
export function HistoryFilters({ filter, onChange }: { filter: HistoryFilter; onChange: (filter: HistoryFilter) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <TextField label="Record name" value={filter.name} placeholder="www" onChange={(e) => onChange({ ...filter, name: e.target.value })} />
      <Select
        label="Record type"
        value={filter.type}
        options={[{ value: 'all', label: 'All types' }, ...RECORD_TYPES.map((t) => ({ value: t, label: t }))]}
        onChange={(e) => onChange({ ...filter, type: e.target.value as RecordType | 'all' })}
      />
      {filter.recordId ? (
        <Button variant="ghost" onClick={() => onChange({ ...filter, recordId: null })}>
          Showing one record's history: show all
        </Button>
      ) : null}
    </div>
  );
}
