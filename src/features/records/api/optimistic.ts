import type { QueryClient } from '@tanstack/react-query';
import type { DnsRecord } from '#core/wire/dns.ts';
import { recordsKey } from '@/lib/query-keys.ts';
import { PENDING_PREFIX } from '../model/table.ts';

export { PENDING_PREFIX };

export interface Snapshot {
  previous: DnsRecord[] | undefined;
}

/** Shows a write in the table at once; the snapshot restores the table if the service refuses it. */
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

/**
 * After a batch or a refused write the zone's records reload. Only the records: a record write cannot change
 * whether the domain is parked, and every request counts against the service's per-client rate limit.
 */
export function settle(queryClient: QueryClient, zoneName: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: recordsKey(zoneName), exact: true });
}

/** A single write answers with the stored record: it takes the optimistic row's place, so nothing reloads. */
export function confirmRecord(queryClient: QueryClient, zoneName: string, replaceId: string, stored: DnsRecord): void {
  queryClient.setQueryData<DnsRecord[]>(recordsKey(zoneName), (rows) => rows?.map((row) => (row.id === replaceId ? stored : row)));
}

/** A record not yet stored, shown while its write is on the way; its id marks it as pending. */
export function pendingRecord(zoneName: string, record: Pick<DnsRecord, 'name' | 'type' | 'rdata' | 'ttl'>, id: string): DnsRecord {
  const now = new Date().toISOString();
  return { id, zoneName, class: 'IN', metadata: { pending: true }, createdAt: now, updatedAt: now, ...record };
}
