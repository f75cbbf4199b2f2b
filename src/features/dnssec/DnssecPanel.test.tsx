// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
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
  rollover: null,
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
    expect(document.querySelector('[data-field="Algorithm"]')?.textContent).toBe('13(ECDSA P-256 with SHA-256)');
    expect(screen.getByTestId('dnssec-chain').textContent).toMatch(/The parent zone \(\.com\) has no DS record for panel\.com yet/);
  });

  it('signed: says how (algorithm and proof of absence); the algorithm is fixed, NSEC3 is offered with the same DS', async () => {
    serve('offers dnssec', { ...STATE, algorithm: 15, ds: [{ ...STATE.ds[0], algorithm: 15 }] });
    renderPanel();
    expect(await screen.findByText(/key tag 4242, Ed25519, NSEC\)/)).toBeTruthy();
    const algorithm = screen.getByLabelText('Algorithm') as HTMLSelectElement;
    expect(algorithm.value).toBe('15');
    expect(algorithm.disabled).toBe(true);
    expect(screen.getByText(/needs a key rollover/)).toBeTruthy();
    // Nothing to sign while the choice is the zone's own.
    expect(screen.queryByRole('button', { name: /Sign with/ })).toBeNull();
    fireEvent.change(screen.getByLabelText('Proof that a name does not exist'), { target: { value: 'nsec3' } });
    expect(screen.getByRole('button', { name: 'Sign with NSEC3' })).toBeTruthy();
    expect(screen.getByRole('note').textContent).toMatch(/DS record at your registrar stays as it is/);
    expect(screen.getByLabelText(/Opt-out/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Proof that a name does not exist'), { target: { value: 'nsec' } });
    expect(screen.queryByRole('button', { name: /Sign with/ })).toBeNull();
  });

  it('not signed: the algorithm and proof are chosen before the switch, Ed25519 and NSEC3 among them', async () => {
    serve('offers dnssec', { ...STATE, enabled: false, keyTag: null, dnskey: null, ds: [], dsRecords: [] });
    renderPanel();
    expect(await screen.findByText(/Not signed/)).toBeTruthy();
    const algorithm = screen.getByLabelText('Algorithm') as HTMLSelectElement;
    expect(algorithm.disabled).toBe(false);
    fireEvent.change(algorithm, { target: { value: '15' } });
    expect(algorithm.value).toBe('15');
    fireEvent.change(screen.getByLabelText('Proof that a name does not exist'), { target: { value: 'nsec3' } });
    // An unsigned zone has nothing to re-sign: the switch signs it as chosen.
    expect(screen.queryByRole('button', { name: /Sign with/ })).toBeNull();
    expect(screen.getByRole('switch', { name: /Sign this zone/ }).getAttribute('aria-checked')).toBe('false');
  });
});
