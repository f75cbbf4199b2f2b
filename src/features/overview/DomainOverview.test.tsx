// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { json, renderWithQueries, typesForMethodAnswer } from '../../../test/dashboard/service-edge.tsx';
import DomainOverview from './DomainOverview.tsx';

const PARKED = [{ id: 'p1', zoneName: 'keep.com', name: '@', type: 'A', class: 'IN', rdata: '34.123.0.161', ttl: 3600, metadata: { managed: true, managedBy: 'parking' }, createdAt: '2026-11-26T09:00:00.000Z', updatedAt: '2026-11-26T09:00:00.000Z' }];

/** The service at the network edge: production (none of our settings) or this project's; DNS over HTTPS is down. */
function serve(kind: 'production' | 'ours') {
  const fetchMock = vi.fn(async (url: string) => {
    const { pathname, searchParams } = new URL(url);
    if (pathname.endsWith('/eip712/types-for-method')) return json(typesForMethodAnswer(searchParams.get('method') as 'setAutoRenew', kind === 'ours'));
    if (pathname.endsWith('/dns/records')) return json(PARKED);
    if (pathname.endsWith('/domain-config/auto-renew')) return json({ normalizedDomainName: 'keep.com', enabled: true, durationInYears: 2, nextAttemptAt: null, lastAttempt: null });
    if (pathname.endsWith('/domain-config/forwarding')) return json({ normalizedDomainName: 'keep.com', enabled: false, targetUrl: '', statusCode: 301, keepPath: true });
    if (pathname.endsWith('/dns/dnssec')) return json({ normalizedDomainName: 'keep.com', enabled: true, algorithm: 13, keyTag: 4242, dnskey: null, ds: [], dsRecords: [] });
    if (pathname.endsWith('/dns-query')) return new Response('down', { status: 503 });
    if (pathname.endsWith('/orders/renew-domain/quote')) {
      if (kind === 'production') return new Response('{"message":"Not Found"}', { status: 404, headers: { 'content-type': 'application/json' } });
      return json({ normalizedDomainName: 'keep.com', ownerAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', expiresAt: '2027-11-26T09:00:00.000Z', renewalPriceInUSDCentsPerYear: 1500, latestExpiresAt: '2036-11-26T09:00:00.000Z' });
    }
    throw new Error(`unexpected request ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const facts = async () => {
  const region = await screen.findByRole('region', { name: 'Overview of keep.com' });
  return (label: string) => within(region).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
};

describe('the domain overview', () => {
  it("against this project's service: auto-renew, parking or forwarding, DNSSEC, each from the answer its tab reads", async () => {
    serve('ours');
    renderWithQueries(<DomainOverview domain="keep.com" />);
    const fact = await facts();
    expect(await screen.findByText('On, 2 yr at a time')).toBeTruthy();
    expect(await screen.findByText('Signed (key 4242)')).toBeTruthy();
    expect(fact('Parking / forwarding')).toBe('Parked');
    // Signed out, the public quote still says who holds it and until when.
    await vi.waitFor(() => expect(fact('Owner')).toBe('0x70…79C8'));
    expect(fact('Expires')).toMatch(/^2027-11-26 \(in \d+ days\)$/);
    expect(await screen.findAllByText('Could not ask DNS', {}, { timeout: 4000 })).toHaveLength(2);
  });

  it('against production: what that service does not offer is left out, with no error', async () => {
    const fetchMock = serve('production');
    renderWithQueries(<DomainOverview domain="keep.com" />);
    const fact = await facts();
    expect(await screen.findByText('Parked')).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByText('Auto-renew')).toBeNull());
    expect(screen.queryByText('DNSSEC')).toBeNull();
    expect(fact('Parking')).toBe('Parked');
    // Production has no public quote: the holder and expiry wait for a signed-in wallet's own list.
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/orders/renew-domain/quote'))).toBe(true));
    expect(fact('Owner')).toBe('Sign in to see');
    const asked = fetchMock.mock.calls.map(([url]) => new URL(url as string).pathname);
    expect(asked.some((p) => p.endsWith('/domain-config/auto-renew') || p.endsWith('/dns/dnssec') || p.endsWith('/domain-config/forwarding'))).toBe(false);
  });
});
