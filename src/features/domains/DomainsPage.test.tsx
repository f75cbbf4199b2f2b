// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { UserDomain } from '#core/wire/user.ts';
import { config } from '@/lib/config.ts';
import { walletSession } from '@/lib/session/wallet-session.ts';
import { ToastProvider } from '@/ui/index.ts';
import DomainsPage from './DomainsPage.tsx';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
const day = 86_400_000;
const domain = (name: string, daysLeft: number, parked: boolean): UserDomain => ({
  normalizedDomainName: name,
  chainId: 31337,
  ownerAddress: address,
  tokenId: '73424185591231264856942467658126045384722339262431640587003585557325431436312',
  expirationDate: new Date(Date.now() + daysLeft * day).toISOString(),
  dnsStatus: { isParkingEnabled: parked, hasWebRecords: !parked, hasMxRecords: false },
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The service at the network edge: GET /user/domains answers with the given list; the week of queries a domain
 * (ours) with `summary`, or as production does, with an unknown path's 404.
 */
function serve(domains: UserDomain[], summary?: { days: string[]; zones: Array<{ zoneName: string; daily: number[]; total: number }> }) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url.includes('/dns/analytics/summary')) return summary ? json(summary) : json({ message: 'Not Found' }, 404);
    expect(url).toContain('/user/domains');
    return json(domains);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/domains']}>
          <Routes>
            <Route path="/domains" element={<DomainsPage />} />
            <Route path="/domains/:domain" element={<p>Records page</p>} />
            <Route path="/search" element={<p>Search page</p>} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  walletSession.setState({ account: { status: 'connected', address, chainId: 31337 } });
  walletSession.getState().startSession({ address, chainId: 31337, token: 'test-token', expiresAt: Date.now() + 3_600_000, apiBaseUrl: config.apiBaseUrl });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  walletSession.getState().endSession('signed-out');
});

describe('DomainsPage', () => {
  it('lists domains with expiry warnings and state, sends the session token, and opens a domain', async () => {
    const fetchMock = serve([domain('zeta.com', 400, true), domain('alpha.io', 10, false)]);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Your domains' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('link').textContent)).toEqual(['alpha.io', 'zeta.com']);
    expect(rows[0].textContent).toContain('expires in 9 days');
    expect(rows[1].textContent).toContain('Parked');
    expect(within(rows[1]).getByText('#734241…6312')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('1 domain expires within 30 days');
    // Production counts no queries: no column for them.
    expect(within(table).queryByRole('columnheader', { name: 'Queries, 7 days' })).toBeNull();
    const headers = new Headers((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers);
    expect([...headers.values()]).toContain('test-token');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'parked');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    await user.click(screen.getByRole('link', { name: 'zeta.com' }));
    expect(await screen.findByText('Records page')).toBeTruthy();
  });

  it("shows each domain's week of queries as a line with its words, from one request for the whole list", async () => {
    const days = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2026, 10, 20 + i)).toISOString());
    const fetchMock = serve([domain('zeta.com', 400, true), domain('alpha.io', 200, false)], {
      days,
      zones: [
        { zoneName: 'zeta.com', daily: [0, 2, 0, 0, 40, 3, 5], total: 50 },
        { zoneName: 'alpha.io', daily: [0, 0, 0, 0, 0, 0, 0], total: 0 },
      ],
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Your domains' });
    expect(await within(table).findByRole('columnheader', { name: 'Queries, 7 days' })).toBeTruthy();
    const [alpha, zeta] = within(table).getAllByRole('row').slice(1);
    expect(within(zeta).getByRole('img', { name: '50 queries in 7 days, 5 queries today' })).toBeTruthy();
    expect(within(alpha).getByRole('img', { name: '0 queries in 7 days, 0 queries today' })).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/dns/analytics/summary'))).toHaveLength(1);
  });

  it('leads a wallet without domains to search', async () => {
    serve([]);
    renderPage();
    const link = await screen.findByRole('link', { name: 'Search for a domain' });
    await userEvent.setup().click(link);
    expect(await screen.findByText('Search page')).toBeTruthy();
  });
});
