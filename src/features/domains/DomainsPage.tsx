import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Button, EmptyState, Notice, PageHeader, Select, Spinner, TextField } from '@/ui/index.ts';
import { userDomainsQueryOptions } from './api/get-user-domains.ts';
import { DomainsTable } from './components/DomainsTable.tsx';
import { domainFilters, toDomainRow, viewDomains, type DomainFilter, type DomainSort } from './model/domain-list.ts';
import { clickRow, emptySelection, keepListed, selectAll } from './model/selection.ts';
import { loadRun as savedBulkRun } from './bulk/model/bulk-run.ts';

// Loaded when first needed: the list itself stays as light as before.
const BulkPanel = lazy(() => import('./bulk/BulkPanel.tsx'));
const RenewDialog = lazy(() => import('@/features/renew/index.ts').then((m) => ({ default: m.RenewDialog })));

/** /domains — the signed-in wallet's domains: expiry, parking, records, NFT; each row opens the domain. */
export default function DomainsPage() {
  const api = useApi();
  const session = useWalletSession();
  const navigate = useNavigate();
  const signedIn = session.status === 'signed-in';
  const domains = useQuery({ ...userDomainsQueryOptions(api, session.address), enabled: signedIn });
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<DomainFilter>('all');
  const [sort, setSort] = useState<{ key: DomainSort; direction: 'asc' | 'desc' }>({ key: 'name', direction: 'asc' });
  const [selection, setSelection] = useState(emptySelection);
  const [renewing, setRenewing] = useState<string[] | null>(null);

  const rows = useMemo(() => {
    const now = Date.now();
    return (domains.data ?? []).map((d) => toDomainRow(d, now));
  }, [domains.data]);
  const shown = useMemo(() => viewDomains(rows, { query, filter, sort: sort.key, direction: sort.direction }), [rows, query, filter, sort]);
  const shownNames = useMemo(() => shown.map((r) => r.name), [shown]);
  const listed = useMemo(() => keepListed(selection, rows.map((r) => r.name)), [selection, rows]);
  const selected = rows.map((r) => r.name).filter((n) => listed.selected.has(n));
  const expiring = rows.filter((r) => r.expiry !== 'ok').length;

  const header = <PageHeader title="My domains" description="Domains this wallet owns. Open one to change its DNS records, parking and forwarding, or select many to change them together." />;

  if (!signedIn) {
    return (
      <div>
        {header}
        <EmptyState
          title="Sign in to see your domains"
          description="Connect your wallet and sign in; signing is free and sends no transaction."
          action={<Button onClick={() => void session.requestSignIn()}>Sign in</Button>}
        />
      </div>
    );
  }
  if (domains.isPending) return <div>{header}<Spinner label="Loading your domains" /></div>;
  if (domains.isError) {
    const explained = explainError(domains.error, { address: session.address });
    return (
      <div>
        {header}
        <Notice tone="danger" title="Your domains could not be loaded" actions={<Button onClick={() => void domains.refetch()}>Try again</Button>}>
          {explained.title}
          {explained.description ? `: ${explained.description}` : ''}
        </Notice>
      </div>
    );
  }
  if (rows.length === 0) {
    return (
      <div>
        {header}
        <EmptyState
          title="No domains yet"
          description="Find a name you like and register it; it shows up here once the order completes."
          action={
            <Link to="/search" className="inline-flex h-10 items-center rounded-lg bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800 dark:bg-brand-500 dark:text-slate-950">
              Search for a domain
            </Link>
          }
        />
      </div>
    );
  }

  return (
    <div className="space-y-4">
      {header}
      {expiring > 0 ? (
        <Notice tone="warning" title={`${expiring} ${expiring === 1 ? 'domain expires' : 'domains expire'} within 30 days`}>
          Renew in time to keep the name and its records.
        </Notice>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <TextField label="Filter domains" type="search" placeholder="Part of a name" value={query} onChange={(event) => setQuery(event.target.value)} />
        </div>
        <div className="w-60">
          <Select label="Show" value={filter} onChange={(event) => setFilter(event.target.value as DomainFilter)} options={domainFilters(rows)} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          {shown.length} of {rows.length} {rows.length === 1 ? 'domain' : 'domains'}
          {selected.length > 0 ? `, ${selected.length} selected` : ''}
        </p>
        {shown.length > 0 ? (
          <Button size="sm" variant="secondary" onClick={() => setSelection((s) => selectAll(s, shownNames))}>
            Select all {shown.length} that match
          </Button>
        ) : null}
        {selected.length > 0 ? (
          <Button size="sm" variant="secondary" onClick={() => setRenewing(selected)}>
            Renew {selected.length} selected
          </Button>
        ) : null}
        {selected.length > 0 ? (
          <Button size="sm" variant="ghost" onClick={() => setSelection(emptySelection)}>
            Clear selection
          </Button>
        ) : null}
      </div>
      {session.address && (selected.length > 0 || savedBulkRun(session.address)) ? (
        <Suspense fallback={<Spinner label="Loading bulk actions" />}>
          <BulkPanel account={session.address} selected={selected} />
        </Suspense>
      ) : null}
      {renewing ? (
        <Suspense fallback={<Spinner label="Loading the renewal" />}>
          <RenewDialog domains={renewing} onClose={() => setRenewing(null)} />
        </Suspense>
      ) : null}
      {shown.length > 0 ? (
        <DomainsTable
          rows={shown}
          sort={sort}
          onSort={(key) => setSort((s) => ({ key, direction: s.key === key && s.direction === 'asc' ? 'desc' : 'asc' }))}
          onOpen={(name) => void navigate(`/domains/${name}`)}
          selected={listed.selected}
          onSelect={(name, shift) => setSelection((s) => clickRow(s, shownNames, name, shift))}
        />
      ) : (
        <EmptyState title="No domain matches" action={<Button variant="secondary" onClick={() => { setQuery(''); setFilter('all'); }}>Show all domains</Button>} />
      )}
    </div>
  );
}
