// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DnssecState } from '@/core/wire/dnssec.ts';
import { ToastProvider } from '@/ui/index.ts';
import DnssecPanel from './DnssecPanel.tsx';

const STATE: DnssecState = {
  normalizedDomainName: 'panel.com',
  enabled: true,
  algorithm: 13,
  keyTag: 4242,
  dnskey: 'panel.com. 3600 IN DNSKEY 257 3 13 AAAA',
  ds: [{ keyTag: 4242, algorithm: 13, digestType: 2, digest: 'AB'.repeat(32) }],
  dsRecords: [`panel.com. 3600 IN DS 4242 13 2 ${'AB'.repeat(32)}`],
};

/** The service at the network edge: every request answered with `body`, and counted. */
function serve(body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPanel(localService: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <DnssecPanel domain="panel.com" localService={localService} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DNSSEC panel', () => {
  it('against production: says DNSSEC comes only with registration, asks nothing about DNSSEC and shows no error', async () => {
    const fetchMock = serve({});
    renderPanel(false);
    expect(await screen.findByText(/offers DNSSEC only when a domain is registered/)).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock.mock.calls.map((args: unknown[]) => String(args[0])).filter((u) => u.includes("/dns/dnssec"))).toEqual([]);
  });

  it('signed: the DS fields a registrar asks for, each with a copy button, the whole record, and the chain in plain words', async () => {
    serve(STATE);
    renderPanel(true);
    expect(await screen.findByText(/Signed: every answer carries a signature \(key tag 4242/)).toBeTruthy();
    expect(screen.getByRole('switch', { name: /Sign this zone/ }).getAttribute('aria-checked')).toBe('true');
    for (const field of ['Key tag', 'Algorithm', 'Digest type', 'Digest', 'Whole DS record']) expect(screen.getByRole('button', { name: `Copy ${field.toLowerCase()}` })).toBeTruthy();
    expect(screen.getByLabelText('Whole DS record').textContent).toBe(STATE.dsRecords[0]);
    expect(screen.getByText(/ECDSA P-256 with SHA-256/)).toBeTruthy();
    expect(screen.getByTestId('dnssec-chain').textContent).toMatch(/The parent zone \(\.com\) has no DS record for panel\.com yet/);
  });
});
