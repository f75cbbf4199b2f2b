import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { factsOfZoneMoved } from '#core/operations/index.ts';
import { config } from '../config.ts';
import { askDns } from '../dns-over-https.ts';
import { zoneVersionKey } from '../query-keys.ts';
import { refreshFacts } from './facts.ts';

/**
 * How often an open domain page asks for its zone's serial (while the tab is visible): a change made elsewhere (another
 * tab, a grantee, an API key, DNS UPDATE, the service's own renewals) shows within this.
 */
export const ZONE_POLL_MS = 10_000;

/** The zone's SOA serial as DNS answers it now (null: no SOA, e.g. a name with no zone here). */
async function soaSerial(dohUrl: string, zone: string, signal?: AbortSignal): Promise<number | null> {
  const answer = await askDns(dohUrl, zone, 'SOA', signal);
  const soa = answer.answers.find((a) => a.type === 'SOA');
  const serial = soa ? Number(soa.rdata.split(/\s+/)[2]) : NaN;
  return Number.isFinite(serial) ? serial : null;
}

export function zoneVersionQuery(zone: string) {
  return queryOptions({
    queryKey: zoneVersionKey(zone),
    queryFn: ({ signal }) => soaSerial(config.dohUrl, zone, signal),
    enabled: zone !== '',
    staleTime: 0,
    refetchInterval: ZONE_POLL_MS,
    retry: 1,
  });
}

/** The serial each zone's facts were last refreshed for, per cache; a pending own write, per cache. */
const refreshedFor = new WeakMap<QueryClient, Map<string, number | null>>();
const ownPending = new WeakMap<QueryClient, Set<string>>();
const mapOf = <V>(map: WeakMap<QueryClient, V>, client: QueryClient, make: () => V): V => {
  let value = map.get(client);
  if (!value) map.set(client, (value = make()));
  return value;
};

/**
 * Before a write of this page refreshes the zone's facts: the serial is read again first, so the facts read after it
 * are at least as new, and the watcher takes that serial as seen rather than refreshing them a second time.
 */
export async function ownZoneChange(queryClient: QueryClient, zone: string): Promise<void> {
  if (!queryClient.getQueryCache().find({ queryKey: zoneVersionKey(zone), exact: true })) return;
  const pending = mapOf(ownPending, queryClient, () => new Set<string>());
  pending.add(zone);
  try {
    const serial = await queryClient.fetchQuery({ ...zoneVersionQuery(zone), staleTime: 0 });
    mapOf(refreshedFor, queryClient, () => new Map()).set(zone, serial);
  } catch {
    // DNS did not answer: the facts are refreshed anyway, and the next poll compares with what it saw last.
  } finally {
    pending.delete(zone);
  }
}

/**
 * Mounted by the domain page: polls the zone's serial, and when it moves without a write of this page, refreshes
 * every fact a zone change may change (derived from the operation table: factsOfZoneMoved).
 */
export function useZoneWatch(zone: string): void {
  const queryClient = useQueryClient();
  const version = useQuery(zoneVersionQuery(zone));
  const serial = version.data;
  useEffect(() => {
    if (serial === undefined) return;
    const seen = mapOf(refreshedFor, queryClient, () => new Map());
    const before = seen.get(zone);
    seen.set(zone, serial);
    if (mapOf(ownPending, queryClient, () => new Set<string>()).has(zone)) return;
    if (before !== undefined && before !== serial) void refreshFacts(queryClient, factsOfZoneMoved(), zone);
  }, [queryClient, serial, zone]);
}
