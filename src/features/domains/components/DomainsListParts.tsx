import { Button, Notice, Select, TextField } from '@/ui/index.ts';
import { domainFilters, EXPIRES_WITHIN, type DomainFilter, type DomainRow, type ExpiresWithin } from '../model/domain-list.ts';

/** The domain list's controls (DomainsPage.tsx holds their state): the expiry notice, the filters, the selection bar. */

/** Domains expiring within 30 days, with a way to list just those, soonest first. */
export function ExpiringNotice({ expiring, within, onShow }: { expiring: number; within: ExpiresWithin; onShow: () => void }) {
  if (expiring === 0) return null;
  return (
    <Notice
      tone="warning"
      title={`${expiring} ${expiring === 1 ? 'domain expires' : 'domains expire'} within 30 days`}
      actions={within === 30 ? null : <Button size="sm" variant="secondary" onClick={onShow}>Show them</Button>}
    >
      Renew in time to keep the name and its records.
    </Notice>
  );
}

/** Filter by a part of the name, by what a domain has, by when it expires; and every expiry as a calendar file. */
export function DomainFilters(props: {
  rows: DomainRow[];
  query: string;
  onQuery: (query: string) => void;
  filter: DomainFilter;
  onFilter: (filter: DomainFilter) => void;
  within: ExpiresWithin;
  onWithin: (within: ExpiresWithin) => void;
  onCalendar: () => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-60 flex-1">
        <TextField label="Filter domains" type="search" placeholder="Part of a name" value={props.query} onChange={(event) => props.onQuery(event.target.value)} />
      </div>
      <div className="w-60">
        <Select label="Show" value={props.filter} onChange={(event) => props.onFilter(event.target.value as DomainFilter)} options={domainFilters(props.rows)} />
      </div>
      <div className="w-48">
        <Select
          label="Expires"
          value={String(props.within)}
          onChange={(event) => props.onWithin(event.target.value === 'any' ? 'any' : (Number(event.target.value) as ExpiresWithin))}
          options={EXPIRES_WITHIN.map((w) => ({ value: String(w.value), label: w.label }))}
        />
      </div>
      <Button variant="secondary" onClick={props.onCalendar} title="Every domain's expiry as a calendar event, with reminders 30, 7 and 1 days before">
        Expiry calendar (.ics)
      </Button>
    </div>
  );
}

/** How many are shown and selected, and what to do with the selection. */
export function SelectionBar(props: { shown: number; total: number; selected: number; onSelectAll: () => void; onRenew: () => void; onClear: () => void }) {
  const { shown, total, selected } = props;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {shown} of {total} {total === 1 ? 'domain' : 'domains'}
        {selected > 0 ? `, ${selected} selected` : ''}
      </p>
      {shown > 0 ? (
        <Button size="sm" variant="secondary" onClick={props.onSelectAll}>
          Select all {shown} that match
        </Button>
      ) : null}
      {selected > 0 ? (
        <Button size="sm" variant="secondary" onClick={props.onRenew}>
          Renew {selected} selected
        </Button>
      ) : null}
      {selected > 0 ? (
        <Button size="sm" variant="ghost" onClick={props.onClear}>
          Clear selection
        </Button>
      ) : null}
    </div>
  );
}
