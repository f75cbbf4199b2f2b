import { lazy } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageHeader, Tabs } from '@/ui/index.ts';

const ParkingPanel = lazy(() => import('@/features/parking/ParkingPanel.tsx'));
const DnssecPanel = lazy(() => import('@/features/dnssec/DnssecPanel.tsx'));
const ForwardingPanel = lazy(() => import('@/features/forwarding/ForwardingPanel.tsx'));
const AutoRenewPanel = lazy(() => import('@/features/auto-renew/AutoRenewPanel.tsx'));
const RecordsPage = lazy(() => import('@/features/records/RecordsPage.tsx'));
const HistoryPanel = lazy(() => import('@/features/history/HistoryPanel.tsx'));

/** /domains/:domain — the domain's parking, forwarding, DNSSEC and auto-renew above its DNS records; its history in a tab of its own (?tab=history). */
export default function DomainRoute() {
  const domain = (useParams().domain ?? '').toLowerCase();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'history' ? 'history' : 'records';
  const show = (next: 'records' | 'history', recordId?: string) => setSearch(next === 'history' ? { tab: next, ...(recordId ? { record: recordId } : {}) } : {});
  return (
    <div className="space-y-6">
      <PageHeader title={domain} description="Parking, forwarding, DNSSEC, auto-renew, DNS records and their history" />
      <Tabs
        label={`${domain}: records or history`}
        selected={tab}
        onSelect={(id) => show(id as 'records' | 'history')}
        items={[
          {
            id: 'records',
            label: 'Records',
            content: (
              <div className="space-y-6">
                <ParkingPanel domain={domain} />
                <ForwardingPanel domain={domain} />
                <DnssecPanel domain={domain} />
                <AutoRenewPanel domain={domain} />
                <RecordsPage domain={domain} onRecordHistory={(id) => show('history', id)} />
              </div>
            ),
          },
          { id: 'history', label: 'History', content: <HistoryPanel key={search.get('record') ?? ''} domain={domain} recordId={search.get('record')} onChangeSet={() => show('records')} /> },
        ]}
      />
    </div>
  );
}
