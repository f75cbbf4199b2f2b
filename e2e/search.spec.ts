import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { ownDomain } from './support/service-client.ts';
import { header } from './support/pages.ts';
import { isApiRequest, searchPage } from './pages/search.ts';

const run = Date.now().toString(36);
const taken = `taken-${run}.com`;
const free = `free-${run}.com`;

test.describe('search', () => {
  test.use({ walletKeys: [generatePrivateKey()] });

  test.beforeAll(async () => {
    await ownDomain(generatePrivateKey(), taken);
  });

  test('signed out: a free name with its price, a taken one with its reason, no request for an invalid name', async ({ page }) => {
    const availabilityRequests: string[] = [];
    const bulkRequests: string[] = [];
    page.on('request', (r) => {
      if (isApiRequest(r, '/search/availability')) availabilityRequests.push(new URL(r.url()).searchParams.get('domain') ?? '');
      if (isApiRequest(r, '/search/bulk-availability')) bulkRequests.push(r.url());
    });
    await page.goto('/search');
    const search = searchPage(page);
    await expect(header(page).connectButton).toBeVisible();

    await search.search('coffee');
    await expect(page.getByRole('status').filter({ hasText: 'Add an ending such as .com' })).toBeVisible();
    await search.search('-bad-.com');
    await expect(page.getByRole('status').filter({ hasText: 'hyphen' })).toBeVisible();

    // Typed key by key: the debounce asks once, for the settled name only.
    await search.box.clear();
    await search.box.pressSequentially(free, { delay: 40 });
    const freeRow = search.exact.getByRole('listitem', { name: free });
    await expect(freeRow).toContainText('Available');
    await expect(freeRow).toContainText(/\$\d+\.\d{2} \/ year/);
    await expect(search.exact.getByRole('button', { name: `Buy ${free}` })).toBeVisible();

    await search.search(taken.toUpperCase());
    const takenRow = search.exact.getByRole('listitem', { name: taken });
    await expect(takenRow).toContainText('Unavailable');
    await expect(takenRow).toContainText(`${taken} is already registered`);
    await expect(search.exact.getByRole('button', { name: `Buy ${taken}` })).toHaveCount(0);

    expect(availabilityRequests, 'only valid names are asked about, once each, debounced').toEqual([free, taken]);

    await expect(search.suggestions.getByRole('listitem').first()).toBeVisible();
    const bulkBefore = bulkRequests.length;
    await search.suggestions.getByRole('button', { name: 'Next' }).click();
    await expect(search.suggestions).toContainText('Page 2 of');
    await expect(search.suggestions.getByRole('listitem').first()).toBeVisible();
    expect(bulkRequests.length - bulkBefore, 'one bulk availability request per page').toBe(1);
    expect(page.url()).toContain(`q=${encodeURIComponent(taken.toUpperCase())}`);
  });

  test('buying signed out asks to connect and sign in, then continues to checkout', async ({ page, wallet }) => {
    await page.goto(`/search?q=${free}`);
    const search = searchPage(page);
    await expect(search.box).toHaveValue(free);
    await search.exact.getByRole('button', { name: `Buy ${free}` }).click();

    const modal = page.getByRole('dialog');
    await modal.getByRole('button', { name: 'Test Wallet' }).click();
    await modal.getByRole('button', { name: 'Sign message' }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/${free.replace('.', '\\.')}\\?years=1$`));
    await expect(page.getByRole('heading', { name: free })).toBeVisible();
    await expect(header(page).signedInBadge).toBeVisible();
    expect(wallet.requests).toContain('personal_sign');
  });
});
