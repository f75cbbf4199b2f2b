import { lazy, Suspense } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageHeader, Tabs } from '@/ui/index.ts';

const ParkingPanel = lazy(() => import('@/features/parking/ParkingPanel.tsx'));
const DnssecPanel = lazy(() => import('@/features/dnssec/DnssecPanel.tsx'));
const ForwardingPanel = lazy(() => import('@/features/forwarding/ForwardingPanel.tsx'));
const AutoRenewPanel = lazy(() => import('@/features/auto-renew/AutoRenewPanel.tsx'));
const RecordsPage = lazy(() => import('@/features/records/RecordsPage.tsx'));
const HistoryPanel = lazy(() => import('@/features/history/HistoryPanel.tsx'));
const ExpiryBanner = lazy(() => import('@/features/domains/ExpiryBanner.tsx'));

/**
 * /domains/:domain — the domain's parking, forwarding and DNSSEC above its DNS records; its renewal (auto-renew) and its
 * history in tabs of their own (?tab=renewal, ?tab=history), so the records are not pushed further down.
 */
type DomainTab = 'records' | 'renewal' | 'history';

export default function DomainRoute() {
  const domain = (useParams().domain ?? '').toLowerCase();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: DomainTab = asked === 'history' || asked === 'renewal' ? asked : 'records';
  const show = (next: DomainTab, recordId?: string) => setSearch(next === 'records' ? {} : { tab: next, ...(next === 'history' && recordId ? { record: recordId } : {}) });
  return (
    <div className="space-y-6">
      <PageHeader title={domain} description="Parking, forwarding, DNSSEC, auto-renew, DNS records and their history" />
      {/* Its own boundary: the page and its tabs never wait for the banner's code. */}
      <Suspense fallback={null}>
        <ExpiryBanner domain={domain} />
      </Suspense>
      <Tabs
        label={`${domain}: records, renewal or history`}
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
                <RecordsPage domain={domain} onRecordHistory={(id) => show('history', id)} />
              </div>
            ),
          },
          { id: 'renewal', label: 'Renewal', content: <AutoRenewPanel domain={domain} /> },
          { id: 'history', label: 'History', content: <HistoryPanel key={search.get('record') ?? ''} domain={domain} recordId={search.get('record')} onChangeSet={() => show('records')} /> },
        ]}
      />
    </div>
  );
}
