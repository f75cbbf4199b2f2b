import { lazy } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageHeader, Tabs } from '@/ui/index.ts';

const ParkingPanel = lazy(() => import('@/features/parking/ParkingPanel.tsx'));
const DnssecPanel = lazy(() => import('@/features/dnssec/DnssecPanel.tsx'));
const ForwardingPanel = lazy(() => import('@/features/forwarding/ForwardingPanel.tsx'));
const AutoRenewPanel = lazy(() => import('@/features/auto-renew/AutoRenewPanel.tsx'));
const RecordsPage = lazy(() => import('@/features/records/RecordsPage.tsx'));
const HistoryPanel = lazy(() => import('@/features/history/HistoryPanel.tsx'));
const AnalyticsPanel = lazy(() => import('@/features/analytics/AnalyticsPanel.tsx'));

/**
 * /domains/:domain — the domain's parking, forwarding and DNSSEC above its DNS records; its renewal (auto-renew) and its
 * history in tabs of their own (?tab=renewal, ?tab=history), so the records are not pushed further down; what its name
 * server answered in the Analytics tab (?tab=analytics), whose "Add a record" opens the record form filled in
 * (?add=name&type=A on the records tab).
 */
type DomainTab = 'records' | 'renewal' | 'history' | 'analytics';

export default function DomainRoute() {
  const domain = (useParams().domain ?? '').toLowerCase();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: DomainTab = asked === 'history' || asked === 'renewal' || asked === 'analytics' ? asked : 'records';
  const add = search.get('add');
  const prefill = add !== null ? { name: add, type: search.get('type') ?? 'A' } : null;
  const show = (next: DomainTab, recordId?: string) => setSearch(next === 'records' ? {} : { tab: next, ...(next === 'history' && recordId ? { record: recordId } : {}) });
  return (
    <div className="space-y-6">
      <PageHeader title={domain} description="Parking, forwarding, DNSSEC, auto-renew, DNS records and their history" />
      <Tabs
        label={`${domain}: records, renewal, history or analytics`}
        selected={tab}
        onSelect={(id) => show(id as DomainTab)}
        items={[
          {
            id: 'records',
            label: 'Records',
            content: (
              <div className="space-y-6">
                <ParkingPanel domain={domain} />
                <ForwardingPanel domain={domain} />
                <DnssecPanel domain={domain} />
                <RecordsPage domain={domain} onRecordHistory={(id) => show('history', id)} prefill={prefill} onPrefilled={() => setSearch({}, { replace: true })} />
              </div>
            ),
          },
          { id: 'renewal', label: 'Renewal', content: <AutoRenewPanel domain={domain} /> },
          { id: 'history', label: 'History', content: <HistoryPanel key={search.get('record') ?? ''} domain={domain} recordId={search.get('record')} onChangeSet={() => show('records')} /> },
          { id: 'analytics', label: 'Analytics', content: <AnalyticsPanel domain={domain} onAddRecord={(r) => setSearch({ add: r.name, type: r.type })} /> },
        ]}
      />
    </div>
  );
}
