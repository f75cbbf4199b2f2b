import type { QueryClient } from '@tanstack/react-query';
import { domainOfRequest, factsChangedByOperation, type OperationId } from '#core/operations/index.ts';
import { ApiError } from '../api-error.ts';
import { refreshFacts } from './facts.ts';
import { ownZoneChange } from './zone-watch.ts';

/**
 * After a write succeeded: refreshes what its declaration says it changes (core/operations/changes.ts). The request is
 * what was sent (body, query and path parameters together), which names the domain. Every write door of the
 * dashboard calls it (through writeThenRefresh); nothing else decides what to read again after a write.
 */
export async function refreshAfterWrite(queryClient: QueryClient, id: OperationId, request: unknown): Promise<void> {
  const facts = factsChangedByOperation(id);
  if (facts.domain.length === 0 && facts.account.length === 0) return;
  const domain = domainOfRequest(id, (request ?? {}) as Record<string, unknown>);
  // The zone's own watcher would see this change as a new serial too: it is told, so it refreshes nothing twice.
  if (domain && facts.domain.includes('answers')) await ownZoneChange(queryClient, domain);
  await refreshFacts(queryClient, facts, domain);
}

/**
 * The one way the dashboard's write doors (useSignedCall, useApi) send a write: once the service accepted it, what
 * its declaration says it changes is read again before this resolves. A write that found the service away (status 0)
 * leaves the page unsure of what it holds: the same is read again, without holding the error back, and a read that
 * fails shows the view as stale. A write the service refused changed nothing, so nothing is read again.
 */
export async function writeThenRefresh<T>(queryClient: QueryClient, id: OperationId, request: unknown, write: () => Promise<T>): Promise<T> {
  const result = await write().catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 0) void refreshAfterWrite(queryClient, id, request).catch(() => undefined);
    throw error;
  });
  await refreshAfterWrite(queryClient, id, request);
  return result;
}
