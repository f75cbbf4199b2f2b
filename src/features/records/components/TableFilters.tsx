import type { Ref } from 'react';
import type { ListedType } from '#core/wire/dns.ts';
import { Select, Switch, TextField } from '@/ui/index.ts';
import type { TableView } from '../model/table.ts';

export interface TableFiltersProps {
  view: TableView;
  typesInZone: ListedType[];
  searchRef: Ref<HTMLInputElement>;
  onSearch: (query: string) => void;
  onClearSearch: () => void;
  onType: (type: ListedType | 'all') => void;
  onGroupByType: (group: boolean) => void;
}

/** Search, type filter and grouping above the records table. */
export function TableFilters({ view, typesInZone, searchRef, onSearch, onClearSearch, onType, onGroupByType }: TableFiltersProps) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-60 flex-1">
        <TextField
          ref={searchRef}
          type="search"
          label="Search records"
          placeholder="Name, content or comment, e.g. www, 192.0.2 or tag:prod"
          value={view.query}
          onChange={(event) => onSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onClearSearch();
          }}
        />
      </div>
      <div className="w-40">
        <Select
          label="Type"
          value={view.type}
          onChange={(event) => onType(event.target.value as ListedType | 'all')}
          options={[{ value: 'all', label: 'All types' }, ...typesInZone.map((t) => ({ value: t, label: t }))]}
        />
      </div>
      <div className="pb-2">
        <Switch label="Group by type" checked={view.groupByType} onChange={onGroupByType} />
      </div>
    </div>
  );
}
