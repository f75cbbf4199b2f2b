import { QueryObserver, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
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
const ZONE_POLL_MS = 10_000;

/** The zone's SOA serial as DNS answers it now (null: no SOA, e.g. a name with no zone here). */
async function soaSerial(dohUrl: string, zone: string, signal?: AbortSignal): Promise<number | null> {
  const answer = await askDns(dohUrl, zone, 'SOA', signal);
  const soa = answer.answers.find((a) => a.type === 'SOA');
  const serial = soa ? Number(soa.rdata.split(/\s+/)[2]) : NaN;
  return Number.isFinite(serial) ? serial : null;
}

function zoneVersionQuery(zone: string, dohUrl: string, pollMs: number) {
  return queryOptions({
    queryKey: zoneVersionKey(zone),
    queryFn: ({ signal }) => soaSerial(dohUrl, zone, signal),
    staleTime: 0,
    refetchInterval: pollMs,
    retry: 1,
  });
}

/** Per cache: the serial each zone's facts were last refreshed for, and the zones a write of this page is refreshing. */
interface WatchState {
  refreshedFor: Map<string, number | null>;
  ownPending: Set<string>;
}
const states = new WeakMap<QueryClient, WatchState>();
function stateOf(queryClient: QueryClient): WatchState {
  let state = states.get(queryClient);
  if (!state) states.set(queryClient, (state = { refreshedFor: new Map(), ownPending: new Set() }));
  return state;
}

/**
 * Before a write of this page refreshes the zone's facts: the serial is read again first, so the facts read after it
 * are at least as new, and the watcher takes that serial as seen rather than refreshing them a second time.
 */
export async function ownZoneChange(queryClient: QueryClient, zone: string): Promise<void> {
  const key = zoneVersionKey(zone);
  if (!queryClient.getQueryCache().find({ queryKey: key, exact: true, type: 'active' })) return;
  const state = stateOf(queryClient);
  state.ownPending.add(zone);
  try {
    await queryClient.refetchQueries({ queryKey: key, exact: true });
    const serial = queryClient.getQueryData<number | null>(key);
    if (serial !== undefined) state.refreshedFor.set(zone, serial);
  } finally {
    state.ownPending.delete(zone);
  }
}

/** A serial the poll read: when it moved and no write of this page moved it, every fact a zone change may change is read again. */
function onSerial(queryClient: QueryClient, zone: string, serial: number | null): void {
  const state = stateOf(queryClient);
  const before = state.refreshedFor.get(zone);
  if (before === serial) return;
  state.refreshedFor.set(zone, serial);
  if (state.ownPending.has(zone) || before === undefined) return;
  void refreshFacts(queryClient, factsOfZoneMoved(), zone);
}

/**
 * Polls a zone's serial (SOA over DoH, never from an HTTP cache) and refreshes what a zone change may change
 * (derived from the operation table: factsOfZoneMoved) when it moves. Returns the function that stops watching.
 */
export function watchZone(queryClient: QueryClient, zone: string, options: { dohUrl?: string; pollMs?: number } = {}): () => void {
  const observer = new QueryObserver(queryClient, zoneVersionQuery(zone, options.dohUrl ?? config.dohUrl, options.pollMs ?? ZONE_POLL_MS));
  return observer.subscribe((result) => {
    if (result.data !== undefined) onSerial(queryClient, zone, result.data);
  });
}

/** Mounted by the domain page: a change made elsewhere shows within ZONE_POLL_MS. */
export function useZoneWatch(zone: string): void {
  const queryClient = useQueryClient();
  useEffect(() => (zone ? watchZone(queryClient, zone) : undefined), [queryClient, zone]);
}
