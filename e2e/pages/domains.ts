import { expect, type Page } from '@playwright/test';

/** The "My domains" list (/domains). */
export function domainsPage(page: Page) {
  return {
    table: page.getByRole('table', { name: 'Your domains' }),
    filter: page.getByRole('searchbox', { name: 'Filter domains' }),
    show: page.getByRole('combobox', { name: 'Show' }),
    link: (name: string) => page.getByRole('link', { name, exact: true }),
    async open() {
      await page.goto('/domains');
      await expect(page.getByRole('heading', { name: 'My domains' })).toBeVisible();
    },
  };
}
