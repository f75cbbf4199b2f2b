import type { QueryClient } from '@tanstack/react-query';
import type { DnsRecord } from '#core/wire/dns.ts';
import { recordsKey } from '@/lib/query-keys.ts';
import { PENDING_PREFIX } from '../model/table.ts';

export { PENDING_PREFIX };

export interface Snapshot {
  previous: DnsRecord[] | undefined;
}

/**
 * Shows a write in the table at once; the snapshot restores the table if the service refuses it. Once the service
 * accepted it, the refresh rule (useSignedCall) reads the records again, and the stored rows take the pending ones' place.
 */
export async function applyOptimistic(queryClient: QueryClient, zoneName: string, change: (records: DnsRecord[]) => DnsRecord[]): Promise<Snapshot> {
  const key = recordsKey(zoneName);
  await queryClient.cancelQueries({ queryKey: key });
  const previous = queryClient.getQueryData<DnsRecord[]>(key);
  if (previous) queryClient.setQueryData<DnsRecord[]>(key, change(previous));
  return { previous };
}

export function rollback(queryClient: QueryClient, zoneName: string, snapshot: Snapshot | undefined): void {
  if (snapshot?.previous) queryClient.setQueryData(recordsKey(zoneName), snapshot.previous);
}

/** A record not yet stored, shown while its write is on the way; its id marks it as pending. */
export function pendingRecord(zoneName: string, record: Pick<DnsRecord, 'name' | 'type' | 'rdata' | 'ttl'>, id: string): DnsRecord {
  const now = new Date().toISOString();
  return { id, zoneName, class: 'IN', metadata: { pending: true }, createdAt: now, updatedAt: now, ...record };
}
