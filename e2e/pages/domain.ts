import { expect, type Page } from '@playwright/test';

/** The domain page's frame (/domains/:domain): its overview at the top and its tabs, found by role and label. */
export function domainPage(page: Page) {
  const overview = page.getByRole('region', { name: /^Overview of / });
  return {
    overview,
    /** One fact of the overview, by its label (Owner, Expires, Auto-renew, Domain answers, Parking / forwarding, …): its value. */
    fact(label: string) {
      const exactly = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      return overview.locator('div').filter({ has: page.getByRole('term').filter({ hasText: exactly }) }).getByRole('definition');
    },
    tab(name: string) {
      return page.getByRole('tab', { name, exact: true });
    },
    /** Selects a tab, as a person clicks it, and waits until it is the one shown. */
    async show(name: 'Records' | 'Forwarding and parking' | 'DNSSEC' | 'Renewal' | 'History') {
      const tab = page.getByRole('tab', { name, exact: true });
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
    },
  };
}
