import { expect, type Page } from '@playwright/test';

/** The checkout page (/checkout/:domain?years=). */
export function checkoutPage(page: Page) {
  const form = page.getByRole('form', { name: /^Checkout for / });
  return {
    form,
    years: page.getByRole('spinbutton', { name: 'Years' }),
    total: page.getByLabel('Total', { exact: true }),
    balance: page.getByLabel('Your balance', { exact: true }),
    faucet: page.getByRole('button', { name: 'Add test credit' }),
    pay: page.getByRole('button', { name: /^Pay .* and register$/ }),
    signingNotice: page.getByRole('note').filter({ hasText: 'Your wallet will ask you to sign' }),
    missing: page.getByRole('alert').filter({ hasText: /You need \$[\d,.]+ more credit/ }),
    recordField: (index: number, field: 'Type' | 'Name' | 'Content' | 'TTL') => page.getByLabel(`${field} of record ${index}`, { exact: true }),
    async open(domain: string, years?: number) {
      await page.goto(`/checkout/${domain}${years ? `?years=${years}` : ''}`);
      await expect(page.getByRole('heading', { name: domain, exact: true })).toBeVisible();
    },
    /**
     * Adds test credit and waits for the faucet's answer, which must be a success. The faucet answers once its grants
     * are mined, and the service's chain writes go one at a time, behind those of the other journeys running: that can
     * take longer than a screen update, and a failure is reported with the service's own words. A page only: inside a
     * frame (the Safe App journey) click `faucet` instead.
     */
    async addTestCredit() {
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/user/faucet'), { timeout: 30_000 });
      await this.faucet.click();
      const response = await answered;
      expect(response.ok(), `the faucet answered ${response.status()}: ${await response.text()}`).toBe(true);
    },
    async addBlankRecord(type: string, name: string, content: string, ttl = '3600') {
      await page.getByRole('button', { name: 'Add a blank record' }).click();
      const index = await page.getByRole('listitem', { name: /^Record \d+$/ }).count();
      await this.recordField(index, 'Type').selectOption(type);
      await this.recordField(index, 'Name').fill(name);
      await this.recordField(index, 'Content').fill(content);
      await this.recordField(index, 'TTL').fill(ttl);
    },
  };
}

