import { queryOptions } from '@tanstack/react-query';
import type { MailFinding } from '#core/wire/mail.ts';
import type { ApiError } from '@/lib/api-error.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { answersKey } from '@/lib/query-keys.ts';

/**
 * GET /dns/mail-check (ours, public): the zone's mail authentication findings, as DNS answers now. Part of the zone's
 * `answers` fact: every zone write re-checks; never from an HTTP cache (the service answers no-store).
 */
export function mailCheckQuery(api: Api, zoneName: string) {
  return queryOptions<{ findings: MailFinding[] }>({
    queryKey: answersKey(zoneName, 'mail'),
    queryFn: () => api.call('checkMailAuth', { query: { zoneName } }),
    staleTime: 0,
    retry: (count: number, error: Error) => !isMailCheckUnsupported(error as ApiError) && count < 2,
  });
}

/** Whether the service has no mail check (production): it answers an unknown path, not our "no domain" 404. */
export function isMailCheckUnsupported(error: ApiError | null | undefined): boolean {
  if (!error || typeof error.status !== 'number') return false;
  if (error.status === 405 || error.status === 501) return true;
  return error.status === 404 && !error.message.startsWith('No domain ');
}
