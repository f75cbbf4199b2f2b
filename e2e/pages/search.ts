import type { Page, Request } from '@playwright/test';

/** The search page: one box, the exact result, and the suggestions. */
export function searchPage(page: Page) {
  const exact = page.getByRole('region', { name: 'Exact match' });
  const suggestions = page.getByRole('region', { name: 'Suggestions' });
  return {
    box: page.getByRole('searchbox', { name: 'Domain name' }),
    exact,
    suggestions,
    result: (name: string) => page.getByRole('listitem', { name, exact: true }),
    buy: (name: string) => page.getByRole('button', { name: `Buy ${name}`, exact: true }),
    async search(text: string) {
      await this.box.fill(text);
    },
  };
}

export function isApiRequest(request: Request, path: string): boolean {
  const url = new URL(request.url());
  return url.pathname.endsWith(`/v-next${path}`);
}
