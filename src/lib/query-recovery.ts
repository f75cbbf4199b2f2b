import { ApiError } from './api/errors.ts';

/** Errors that say the service is away (no answer, or a server error), not that the request was wrong. */
export function isServiceTrouble(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

/** How often a query whose last fetch met service trouble asks again on its own: backs off to half a minute. */
const RECOVERY_BASE_MS = 3_000;
export const RECOVERY_MAX_MS = 30_000;

/**
 * The interval for a query to recover by itself: while its last fetch failed with service trouble, ask again,
 * waiting longer after each failed round; false once it has an answer again or the failure was a refusal.
 */
export function recoveryInterval(state: { status: string; error: unknown; errorUpdateCount: number; dataUpdatedAt: number; errorUpdatedAt: number }): number | false {
  if (state.status !== 'error' || !isServiceTrouble(state.error)) return false;
  if (state.dataUpdatedAt > state.errorUpdatedAt) return false;
  const rounds = Math.max(1, state.errorUpdateCount);
  return Math.min(RECOVERY_MAX_MS, RECOVERY_BASE_MS * 2 ** Math.min(rounds - 1, 10));
}

/** "stale since 14:02:11": when the shown data was last known to be current. */
export function staleSince(dataUpdatedAt: number, locale?: string): string {
  return new Date(dataUpdatedAt).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
