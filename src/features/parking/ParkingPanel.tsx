import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Card, Notice, Spinner, Switch } from '@/ui/index.ts';
import { useToggleParking } from './api/toggle-parking.ts';
import { zoneRecordsQuery } from './api/zone-records.ts';
import { ParkDialog } from './components/ParkDialog.tsx';
import { parkingImpact } from './parking-impact.ts';
import { isParkedZone } from './parking-state.ts';

/**
 * On the domain page: whether the domain is parked, and a switch to park or unpark it (signed). The state
 * comes from the zone's records, the one answer the record table below also reads (see isParkedZone).
 */
/** The switch signs toggleDomainParking (never parkDomain): its types are asked as the panel opens. */
const PARKING_OPERATIONS = ['toggleDomainParking'] as const;

export default function ParkingPanel({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const records = useQuery(zoneRecordsQuery(api, domain));
  const toggle = useToggleParking(domain);
  const [asking, setAsking] = useState<boolean | null>(null);
  // Asked as the dialog opens: the person reads it before the wallet can open, and a visit that never parks asks nothing.
  useSigningTypes(PARKING_OPERATIONS, asking !== null);
  const write = useConfirmedWrite({ domain, address: session.address });

  const isParked = records.data ? isParkedZone(records.data) : undefined;
  const impact = parkingImpact(domain, records.data ?? []);

  const confirm = (enable: boolean, override: boolean) =>
    write.run(() => toggle.mutateAsync({ enableParking: enable, overrideExistingRecords: override }), {
      success: enable ? `${domain} is parked` : `${domain} is no longer parked`,
      close: () => setAsking(null),
    });

  return (
    <section aria-labelledby="parking-heading">
      <Card className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="parking-heading" className="text-lg font-semibold">Parking</h2>
            <p className="text-sm text-slate-600 dark:text-slate-400" role="status">
              {records.isPending
                ? 'Checking…'
                : records.isError
                  ? 'Parking status unavailable'
                  : isParked
                    ? 'Parked: a holding page is served through managed records.'
                    : 'Not parked: only your own records are served.'}
            </p>
          </div>
          {records.isPending ? (
            <Spinner size="sm" label="Checking parking" />
          ) : records.isError ? null : (
            <Switch label="Park this domain" checked={!!isParked} disabled={toggle.isPending} onChange={(next) => setAsking(next)} />
          )}
        </div>
        {records.isError ? <Notice tone="danger" title={explainError(records.error, { domain }).title}>{explainError(records.error, { domain }).description}</Notice> : null}
        {write.declined ? <p className="text-sm" role="status">You declined the signature; parking is unchanged.</p> : null}
        {asking !== null ? (
          <ParkDialog
            domain={domain}
            enable={asking}
            impact={impact}
            busy={toggle.isPending}
            onCancel={() => setAsking(null)}
            onConfirm={(override) => void confirm(asking, override)}
          />
        ) : null}
      </Card>
    </section>
  );
}
