import { useState } from 'react';
import { Link } from 'react-router';
import { config } from '@/lib/config.ts';
import { chainName, dashboardChains } from '@/lib/wallet/chains.ts';
import { Badge, Button } from '@/ui/index.ts';
import { expiryInWords, shortTokenId, type DomainRow, type DomainSort } from '../model/domain-list.ts';

export interface DomainsTableProps {
  rows: DomainRow[];
  sort: { key: DomainSort; direction: 'asc' | 'desc' };
  onSort: (key: DomainSort) => void;
  onOpen: (name: string) => void;
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

export function DomainsTable({ rows, sort, onSort, onOpen }: DomainsTableProps) {
  // The wallet stack loads on demand; chain names come from the dashboard's own chain list, not from wagmi.
  const chains = dashboardChains(config);
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-700">
      <table className="w-full text-sm">
        <caption className="sr-only">Your domains</caption>
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            <SortHeader label="Domain" column="name" sort={sort} onSort={onSort} />
            <SortHeader label="Expires" column="expiry" sort={sort} onSort={onSort} />
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
                if ((event.target as HTMLElement).closest('a,button')) return;
                onOpen(row.name);
              }}
            >
              <th scope="row" className="px-3 py-2 text-left font-medium">
                <Link to={`/domains/${row.name}`} className="text-brand-800 underline-offset-2 hover:underline dark:text-brand-300">
                  {row.name}
                </Link>
              </th>
              <td className="px-3 py-2">
                <time dateTime={row.domain.expirationDate} title={new Date(row.expiresAt).toUTCString()}>
                  {new Date(row.expiresAt).toISOString().slice(0, 10)}
                </time>{' '}
                {row.expiry !== 'ok' ? <Badge tone={row.expiry === 'expired' ? 'danger' : 'warning'}>{expiryInWords(row)}</Badge> : null}
              </td>
              <td className="space-x-1 px-3 py-2">
                {row.parked ? <Badge tone="info">Parked</Badge> : null}
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
