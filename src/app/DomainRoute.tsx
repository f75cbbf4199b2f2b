import { lazy } from 'react';
import { useParams } from 'react-router';
import { PageHeader } from '@/ui/index.ts';

const ParkingPanel = lazy(() => import('@/features/parking/ParkingPanel.tsx'));
const ForwardingPanel = lazy(() => import('@/features/forwarding/ForwardingPanel.tsx'));
const RecordsPage = lazy(() => import('@/features/records/RecordsPage.tsx'));

/** /domains/:domain — the domain's parking and forwarding above its DNS records. */
export default function DomainRoute() {
  const domain = (useParams().domain ?? '').toLowerCase();
  return (
    <div className="space-y-6">
      <PageHeader title={domain} description="Parking, forwarding and DNS records" />
      <ParkingPanel domain={domain} />
      <ForwardingPanel domain={domain} />
      <RecordsPage domain={domain} />
    </div>
  );
}
