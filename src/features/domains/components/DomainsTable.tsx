import { useState } from 'react';
import { Link } from 'react-router';
import { config } from '@/lib/config.ts';
import { chainName, dashboardChains } from '@/lib/wallet/chains.ts';
import { Badge, Button, Sparkline } from '@/ui/index.ts';
import { EXPIRY_WORDS } from '#core/expiry.ts';
import { expiryInWords, shortTokenId, weekOfQueriesInWords, type DomainRow, type DomainSort } from '../model/domain-list.ts';

export interface DomainsTableProps {
  rows: DomainRow[];
  sort: { key: DomainSort; direction: 'asc' | 'desc' };
  onSort: (key: DomainSort) => void;
  onOpen: (name: string) => void;
  /** Selecting many: the names selected, and a click on a row's box (shift held or not). */
  selected: ReadonlySet<string>;
  onSelect: (name: string, shift: boolean) => void;
  /** Each domain's queries a day over the last week, when the service counts them (ours; production does not). */
  queries?: ReadonlyMap<string, number[]>;
}

function SortHeader({ label, column, sort, onSort }: { label: string; column: DomainSort; sort: DomainsTableProps['sort']; onSort: (key: DomainSort) => void }) {
  const active = sort.key === column;
  return (
    <th scope="col" aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'} className="px-3 py-2 text-left font-semibold">
      <button type="button" className="inline-flex items-center gap-1 hover:underline" onClick={() => onSort(column)}>
        {label}
        <span aria-hidden="true">{active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}</span>
      </button>
    </th>
  );
}

export function DomainsTable({ rows, sort, onSort, onOpen, selected, onSelect, queries }: DomainsTableProps) {
  // The wallet stack loads on demand; chain names come from the dashboard's own chain list, not from wagmi.
  const chains = dashboardChains(config);
  // Columns of ours, shown only when the service gives them.
  const registered = rows.some((r) => r.registeredAt !== undefined);
  const counted = rows.some((r) => r.recordCount !== undefined);
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-700">
      <table className="w-full text-sm">
        <caption className="sr-only">Your domains</caption>
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            <th scope="col" className="w-8 px-3 py-2">
              <span className="sr-only">Selected</span>
            </th>
            <SortHeader label="Domain" column="name" sort={sort} onSort={onSort} />
            <SortHeader label="Expires" column="expiry" sort={sort} onSort={onSort} />
            {registered ? <SortHeader label="Registered" column="registered" sort={sort} onSort={onSort} /> : null}
            {counted ? <SortHeader label="Records" column="records" sort={sort} onSort={onSort} /> : null}
            {queries ? (
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Queries, 7 days
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 text-left font-semibold">
              DNS
            </th>
            <th scope="col" className="px-3 py-2 text-left font-semibold">
              NFT
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.name}
              className="cursor-pointer border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/50"
              onClick={(event) => {
                // Clicks on the row's own controls (link, copy) do their own thing.
                if ((event.target as HTMLElement).closest('a,button,input,label')) return;
                onOpen(row.name);
              }}
            >
              <td className="px-3 py-2">
                <input
                  type="checkbox"
                  aria-label={`Select ${row.name}`}
                  checked={selected.has(row.name)}
                  // The click carries shiftKey; onChange would not. The state is controlled, so nothing else is needed.
                  onChange={() => undefined}
                  onClick={(event) => onSelect(row.name, event.shiftKey)}
                  className="h-4 w-4"
                />
              </td>
              <th scope="row" className="px-3 py-2 text-left font-medium">
                <Link to={`/domains/${row.name}`} className="text-brand-800 underline-offset-2 hover:underline dark:text-brand-300">
                  {row.name}
                </Link>
              </th>
              <td className="px-3 py-2">
                <time dateTime={row.domain.expirationDate} title={new Date(row.expiresAt).toUTCString()}>
                  {new Date(row.expiresAt).toISOString().slice(0, 10)}
                </time>{' '}
                {row.expiry !== 'ok' ? <Badge tone={row.expiry === 'expired' ? 'danger' : 'warning'}>{expiryInWords(row)}</Badge> : null}{' '}
                {row.domain.status === 'grace' || row.domain.status === 'redemption' ? (
                  <Badge tone={row.domain.status === 'redemption' ? 'danger' : 'warning'}>{EXPIRY_WORDS[row.domain.status].badge}</Badge>
                ) : null}
                {row.domain.autoRenewShortOfCredit ? <Badge tone="danger">Auto-renew short of credit</Badge> : null}
              </td>
              {registered ? <td className="px-3 py-2">{row.registeredAt === undefined ? '—' : new Date(row.registeredAt).toISOString().slice(0, 10)}</td> : null}
              {counted ? <td className="px-3 py-2 tabular-nums">{row.recordCount ?? '—'}</td> : null}
              {queries ? <td className="px-3 py-2">{queries.has(row.name) ? <WeekOfQueries daily={queries.get(row.name) as number[]} /> : '—'}</td> : null}
              <td className="space-x-1 px-3 py-2">
                {row.parked ? <Badge tone="info">Parked</Badge> : null}
                {row.forwarding ? <Badge tone="info">Forwarding</Badge> : null}
                {row.dnssec ? <Badge tone="info">DNSSEC</Badge> : null}
                <Badge tone={row.web ? 'success' : 'neutral'}>{row.web ? 'Web' : 'No web'}</Badge>
                <Badge tone={row.mail ? 'success' : 'neutral'}>{row.mail ? 'Mail' : 'No mail'}</Badge>
              </td>
              <td className="px-3 py-2">
                <span className="text-slate-600 dark:text-slate-400">{chainName(row.domain.chainId, chains)}</span>{' '}
                <TokenId tokenId={row.domain.tokenId} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TokenId({ tokenId }: { tokenId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="inline-flex items-center gap-1">
      <code title={tokenId}>#{shortTokenId(tokenId)}</code>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Copy token id ${tokenId}`}
        onClick={async () => {
          await navigator.clipboard?.writeText(tokenId);
          setCopied(true);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </span>
  );
}

function WeekOfQueries({ daily }: { daily: number[] }) {
  const total = daily.reduce((a, b) => a + b, 0);
  return (
    <span className="inline-flex items-center gap-2">
      <Sparkline values={daily} label={weekOfQueriesInWords(daily)} />
      <span className="tabular-nums text-slate-600 dark:text-slate-400" aria-hidden="true">
        {total.toLocaleString('en')}
      </span>
    </span>
  );
}
