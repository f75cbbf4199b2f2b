import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { calendarFileName, expiryEvents, printCalendar } from '#core/calendar/ics.ts';
import { downloadText } from '@/lib/download.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useServiceNow } from '@/lib/clock/service-clock.ts';
import { Button, EmptyState, Notice, PageHeader, Spinner } from '@/ui/index.ts';
import { SharedWithYou } from '@/features/access/index.ts';
import { analyticsSummaryQuery } from '@/features/analytics/index.ts';
import { userDomainsQueryOptions } from './api/get-user-domains.ts';
import { DomainFilters, ExpiringNotice, SelectionBar } from './components/DomainsListParts.tsx';
import { DomainsTable } from './components/DomainsTable.tsx';
import { toDomainRow, viewDomains, type DomainFilter } from './model/domain-list.ts';
import { readListParams, writeListParams } from './model/list-params.ts';
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
  // A week of queries for every domain in one request; a service that counts none (production) leaves the column out.
  const summary = useQuery(analyticsSummaryQuery(api, session.address, signedIn));
  const queries = useMemo(() => (summary.data ? new Map(summary.data.zones.map((z) => [z.zoneName, z.daily])) : undefined), [summary.data]);
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<DomainFilter>('all');
  // The expiry window and the order live in the address, so a reload or a shared link shows the same list.
  const [search, setSearch] = useSearchParams();
  const params = readListParams(search);
  const sort = { key: params.sort, direction: params.direction };
  const setParams = (next: Partial<typeof params>) => setSearch((s) => writeListParams(s, { ...readListParams(s), ...next }), { replace: true });
  const [selection, setSelection] = useState(emptySelection);
  const [renewing, setRenewing] = useState<string[] | null>(null);

  // The service's clock (a local test clock may run ahead of this device), so "expired 3 days ago" agrees with it.
  const serviceNow = useServiceNow().getTime();
  const rows = useMemo(() => (domains.data ?? []).map((d) => toDomainRow(d, serviceNow)), [domains.data, serviceNow]);
  const shown = useMemo(() => viewDomains(rows, { query, filter, within: params.within, sort: params.sort, direction: params.direction }), [rows, query, filter, params.within, params.sort, params.direction]);
  const shownNames = useMemo(() => shown.map((r) => r.name), [shown]);
  const listed = useMemo(() => keepListed(selection, rows.map((r) => r.name)), [selection, rows]);
  const selected = rows.map((r) => r.name).filter((n) => listed.selected.has(n));
  const expiring = rows.filter((r) => r.expiry !== 'ok').length;
  const downloadCalendar = () =>
    downloadText(printCalendar(expiryEvents(domains.data ?? [], window.location.origin), { now: new Date(), name: 'My domains: expiries' }), calendarFileName(), 'text/calendar');

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
        <SharedWithYou />
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
      <SharedWithYou />
      <ExpiringNotice expiring={expiring} within={params.within} onShow={() => setParams({ within: 30, sort: 'expiry', direction: 'asc' })} />
      <DomainFilters
        rows={rows}
        query={query}
        onQuery={setQuery}
        filter={filter}
        onFilter={setFilter}
        within={params.within}
        onWithin={(within) => setParams({ within })}
        onCalendar={downloadCalendar}
      />
      <SelectionBar
        shown={shown.length}
        total={rows.length}
        selected={selected.length}
        onSelectAll={() => setSelection((s) => selectAll(s, shownNames))}
        onRenew={() => setRenewing(selected)}
        onClear={() => setSelection(emptySelection)}
      />
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
          onSort={(key) => setParams({ sort: key, direction: sort.key === key && sort.direction === 'asc' ? 'desc' : 'asc' })}
          onOpen={(name) => void navigate(`/domains/${name}`)}
          selected={listed.selected}
          onSelect={(name, shift) => setSelection((s) => clickRow(s, shownNames, name, shift))}
          queries={queries}
        />
      ) : (
        <EmptyState title="No domain matches" action={<Button variant="secondary" onClick={() => { setQuery(''); setFilter('all'); setParams({ within: 'any' }); }}>Show all domains</Button>} />
      )}
    </div>
  );
}
