import { expect, type Page, type Request } from '@playwright/test';

/** The order page (/orders/:id) and the orders list. */
export function orderPage(page: Page) {
  return {
    status: page.getByRole('status', { name: 'Order status' }),
    timeline: page.getByRole('list', { name: 'Order progress' }),
    manageRecords: (domain: string) => page.getByRole('link', { name: `Manage the records of ${domain}` }),
    async expectStatus(label: string, timeout?: number) {
      await expect(this.status).toHaveText(label, { timeout });
    },
  };
}

export function orderIdFromUrl(url: string): string {
  const match = /\/orders\/([^/?#]+)/.exec(url);
  if (!match) throw new Error(`not an order page: ${url}`);
  return decodeURIComponent(match[1]);
}

/** GET /v-next/orders/{id} sent by the page. */
export function isOrderPoll(request: Request, orderId?: string): boolean {
  if (request.method() !== 'GET') return false;
  const path = new URL(request.url()).pathname;
  const match = /\/v-next\/orders\/([^/]+)$/.exec(path);
  return !!match && (orderId === undefined || decodeURIComponent(match[1]) === orderId);
}
