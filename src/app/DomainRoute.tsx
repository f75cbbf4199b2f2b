import { lazy, Suspense } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageHeader, Tabs } from '@/ui/index.ts';
import type { GrantRole } from '#core/access/scope.ts';
import { GrantBanner, useMyGrant } from '@/features/access/index.ts';
import { useZoneWatch } from '@/lib/freshness/zone-watch.ts';

// The overview and the Records tab are on every visit's first screen: both start loading with this module, side by
// side, rather than one after the other as React reaches each.
const loadOverview = () => import('@/features/overview/DomainOverview.tsx');
const loadRecords = () => import('@/features/records/RecordsPage.tsx');
void loadOverview();
void loadRecords();
const DomainOverview = lazy(loadOverview);
const ParkingPanel = lazy(() => import('@/features/parking/ParkingPanel.tsx'));
const DnssecPanel = lazy(() => import('@/features/dnssec/DnssecPanel.tsx'));
const EnsPanel = lazy(() => import('@/features/ens/EnsPanel.tsx'));
const ForwardingPanel = lazy(() => import('@/features/forwarding/ForwardingPanel.tsx'));
const AutoRenewPanel = lazy(() => import('@/features/auto-renew/AutoRenewPanel.tsx'));
const RecordsPage = lazy(loadRecords);
const HistoryPanel = lazy(() => import('@/features/history/HistoryPanel.tsx'));
const SendDomainPanel = lazy(() => import('@/features/domains/SendDomainPanel.tsx'));
const ExpiryBanner = lazy(() => import('@/features/domains/ExpiryBanner.tsx'));
const RenewStrip = lazy(() => import('@/features/renew/RenewStrip.tsx'));
const AnalyticsPanel = lazy(() => import('@/features/analytics/AnalyticsPanel.tsx'));
const MailPanel = lazy(() => import('@/features/mail/MailPanel.tsx'));
const AccessPanel = lazy(() => import('@/features/access/AccessPanel.tsx'));
const ToolsPanel = lazy(() => import('@/features/doors/ToolsPanel.tsx'));

/**
 * /domains/:domain — a domain's whole life on one page. At the top an overview that answers "is it mine, until when,
 * is it working" (owner, expiry, auto-renew, what the domain answers, parking, forwarding, DNSSEC, name servers); then
 * one tab per concern, its records first so that the table is on the first screen (1280×800 and a 390×844 phone).
 * A tab is in the address (?tab=forwarding); Records is the page without one. A later tab (Access) is one more entry
 * in TABS and in `items`. A grantee (a wallet another lets help) sees the tabs of what their role may do, under a
 * banner that says it in words; the owner's own tabs (Renewal, Send, Access, Tools: keys for tools are the owner's) are not theirs. Analytics' "Add a record" opens the record form filled in (?add=name&type=A on Records);
 * Mail's fixes go into the change set, shown on Records.
 */
const TABS = ['records', 'forwarding', 'dnssec', 'mail', 'renewal', 'history', 'analytics', 'send', 'access', 'tools'] as const;
type DomainTab = (typeof TABS)[number];
const isTab = (value: string | null): value is DomainTab => TABS.includes(value as DomainTab);
/** The tabs a grantee's role may use (the service refuses the rest anyway). */
const GRANTEE_TABS: Record<GrantRole, readonly DomainTab[]> = {
  viewer: ['records', 'history', 'analytics'],
  editor: ['records', 'mail', 'history', 'analytics'],
  manager: ['records', 'forwarding', 'dnssec', 'mail', 'history', 'analytics'],
};

export default function DomainRoute() {
  const domain = (useParams().domain ?? '').toLowerCase();
  const [search, setSearch] = useSearchParams();
  const grant = useMyGrant(domain);
  // A change made elsewhere (another tab, a grantee, an API key, DNS UPDATE) shows within the zone's poll.
  useZoneWatch(domain);
  const allowed = (t: DomainTab) => !grant || GRANTEE_TABS[grant.role].includes(t);
  const asked = search.get('tab');
  const tab: DomainTab = isTab(asked) && allowed(asked) ? asked : 'records';
  const add = search.get('add');
  const prefill = add !== null ? { name: add, type: search.get('type') ?? 'A' } : null;
  const show = (next: DomainTab, recordId?: string) => setSearch(next === 'records' ? {} : { tab: next, ...(next === 'history' && recordId ? { record: recordId } : {}) });
  return (
    <div className="space-y-4">
      <PageHeader title={domain} />
      {/* Past its expiry: the state, its dates, what still works and the one action that fixes it (nothing while
          active). Its own boundary: the page and its tabs never wait for the banner's code. */}
      <Suspense fallback={null}>
        <ExpiryBanner domain={domain} />
      </Suspense>
      {grant ? <GrantBanner domain={domain} grant={grant} /> : null}
      {/* Its own boundary: the records tab loads beside it, not after it. */}
      <Suspense fallback={<div className="h-28 rounded-xl border border-slate-200 dark:border-slate-700" aria-hidden="true" />}>
        <DomainOverview domain={domain} renewAction={<RenewStrip domain={domain} />} />
      </Suspense>
      <Tabs
        label={`${domain}: records, forwarding and parking, DNSSEC, mail, renewal, history, analytics, send, access or tools`}
        selected={tab}
        onSelect={(id) => show(id as DomainTab)}
        items={[
          { id: 'records', label: 'Records', content: <RecordsPage domain={domain} readOnly={grant?.role === 'viewer'} onRecordHistory={(id) => show('history', id)} prefill={prefill} onPrefilled={() => setSearch({}, { replace: true })} /> },
          {
            id: 'forwarding',
            label: 'Forwarding and parking',
            content: (
              <div className="space-y-4">
                <ForwardingPanel domain={domain} />
                <ParkingPanel domain={domain} />
              </div>
            ),
          },
          {
            id: 'dnssec',
            label: 'DNSSEC',
            content: (
              <div className="space-y-4">
                <DnssecPanel domain={domain} />
                <EnsPanel domain={domain} />
              </div>
            ),
          },
          { id: 'mail', label: 'Mail', content: <MailPanel domain={domain} onChangeSet={() => show('records')} /> },
          { id: 'renewal', label: 'Renewal', content: <AutoRenewPanel domain={domain} /> },
          { id: 'history', label: 'History', content: <HistoryPanel key={search.get('record') ?? ''} domain={domain} recordId={search.get('record')} onChangeSet={() => show('records')} /> },
          { id: 'analytics', label: 'Analytics', content: <AnalyticsPanel domain={domain} onAddRecord={(r) => setSearch({ add: r.name, type: r.type })} /> },
          { id: 'send', label: 'Send', content: <SendDomainPanel domain={domain} /> },
          { id: 'access', label: 'Access', content: <AccessPanel domain={domain} /> },
          { id: 'tools', label: 'Tools', content: <ToolsPanel domain={domain} /> },
        ].filter((item) => allowed(item.id as DomainTab))}
      />
    </div>
  );
}
