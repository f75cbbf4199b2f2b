// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { DnssecState } from '#core/wire/dnssec.ts';
import { json, renderWithQueries, typesForMethodAnswer } from '../../../test/dashboard/service-edge.tsx';
import DnssecPanel from './DnssecPanel.tsx';

const STATE: DnssecState = {
  normalizedDomainName: 'panel.com',
  enabled: true,
  algorithm: 13,
  denial: 'nsec',
  nsec3OptOut: false,
  keyTag: 4242,
  dnskey: 'panel.com. 3600 IN DNSKEY 257 3 13 AAAA',
  ds: [{ keyTag: 4242, algorithm: 13, digestType: 2, digest: 'AB'.repeat(32) }],
  dsRecords: [`panel.com. 3600 IN DS 4242 13 2 ${'AB'.repeat(32)}`],
};

/**
 * The service at the network edge, every request counted: production (no toggleDnssec) or one that offers it,
 * whatever its address (a self-hosted copy of this project's service is not the local one), answering `state`.
 */
function serve(kind: 'production' | 'offers dnssec', state: unknown = null) {
  const fetchMock = vi.fn(async (url: string) => {
    const { pathname } = new URL(url);
    if (pathname.endsWith('/eip712/types-for-method')) return json(typesForMethodAnswer('toggleDnssec', kind !== 'production'));
    if (pathname.endsWith('/eip712/domain')) return json({ name: 'Namefi Local', version: '1' });
    if (pathname.endsWith('/dns/dnssec')) return json(state);
    throw new Error(`unexpected request ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const renderPanel = () => renderWithQueries(<DnssecPanel domain="panel.com" />);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DNSSEC panel', () => {
  it('against production: says DNSSEC comes only with registration, asks nothing about DNSSEC and shows no error', async () => {
    const fetchMock = serve('production');
    renderPanel();
    expect(await screen.findByText(/offers DNSSEC only when a domain is registered/)).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock.mock.calls.map((args: unknown[]) => String(args[0])).filter((u) => u.includes("/dns/dnssec"))).toEqual([]);
  });

  it('signed: the DS fields a registrar asks for, each with a copy button, the whole record, and the chain in plain words', async () => {
    serve('offers dnssec', STATE);
    renderPanel();
    expect(await screen.findByText(/Signed: every answer carries a signature \(key tag 4242/)).toBeTruthy();
    expect(screen.getByRole('switch', { name: /Sign this zone/ }).getAttribute('aria-checked')).toBe('true');
    for (const field of ['Key tag', 'Algorithm', 'Digest type', 'Digest', 'Whole DS record']) expect(screen.getByRole('button', { name: `Copy ${field.toLowerCase()}` })).toBeTruthy();
    expect(screen.getByLabelText('Whole DS record').textContent).toBe(STATE.dsRecords[0]);
    expect(screen.getByText(/ECDSA P-256 with SHA-256/)).toBeTruthy();
    expect(screen.getByTestId('dnssec-chain').textContent).toMatch(/The parent zone \(\.com\) has no DS record for panel\.com yet/);
  });
});
