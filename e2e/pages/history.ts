import { expect, type Page } from '@playwright/test';

/** The History tab of a domain page, found by role and label. */
export function historyPage(page: Page) {
  const section = page.getByRole('region', { name: 'History', exact: true });
  return {
    section,
    dialog: page.getByRole('dialog'),
    async open() {
      await page.getByRole('tab', { name: 'History' }).click();
      await expect(section).toBeVisible();
    },
    /** The timeline's entry of a serial, expanded. */
    async entry(serial: number) {
      const item = section.getByRole('listitem').filter({ hasText: `serial ${serial}` }).first();
      const toggle = item.getByRole('button', { name: 'Show changes' });
      if (await toggle.isVisible()) await toggle.click();
      return item;
    },
    entries() {
      return section.getByRole('list', { name: 'Changes, newest first' }).locator(':scope > li');
    },
  };
}
