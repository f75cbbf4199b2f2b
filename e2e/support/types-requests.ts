import type { Page } from '@playwright/test';

/**
 * Counts the dashboard's `GET /eip712/types-for-method` requests by `method`, from now on: a session asks each
 * signed operation's types once. `reset()` starts a new count, e.g. before a reload starts a new session.
 */
export function watchTypesRequests(page: Page): { counts: () => Record<string, number>; reset: () => void } {
  let counts: Record<string, number> = {};
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.endsWith('/eip712/types-for-method')) return;
    const method = url.searchParams.get('method') ?? '';
    counts[method] = (counts[method] ?? 0) + 1;
  });
  return { counts: () => ({ ...counts }), reset: () => { counts = {}; } };
}
