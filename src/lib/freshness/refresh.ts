import type { QueryClient } from '@tanstack/react-query';
import { domainOfRequest, factsChangedByOperation, type OperationId } from '#core/operations/index.ts';
import { refreshFacts } from './facts.ts';
import { ownZoneChange } from './zone-watch.ts';

/**
 * After a write succeeded: refreshes what its declaration says it changes (core/operations/changes.ts). The request is
 * what was sent (body, query and path parameters together), which names the domain. Every write door of the
 * dashboard calls it (useSignedCall, useApi); nothing else decides what to read again after a write.
 */
export async function refreshAfterWrite(queryClient: QueryClient, id: OperationId, request: unknown): Promise<void> {
  const facts = factsChangedByOperation(id);
  if (facts.domain.length === 0 && facts.account.length === 0) return;
  const domain = domainOfRequest(id, (request ?? {}) as Record<string, unknown>);
  // The zone's own watcher would see this change as a new serial too: it is told, so it refreshes nothing twice.
  if (domain && facts.domain.includes('answers')) await ownZoneChange(queryClient, domain);
  await refreshFacts(queryClient, facts, domain);
}
