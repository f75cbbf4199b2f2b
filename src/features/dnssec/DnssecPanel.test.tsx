// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

// jsdom has <dialog> but not its modal methods: open it as a browser would.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

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

  it('signed: says how (algorithm and proof of absence); another algorithm is a rollover, NSEC3 is offered with the same DS', async () => {
    serve('offers dnssec', { ...STATE, algorithm: 15, ds: [{ ...STATE.ds[0], algorithm: 15 }] });
    renderPanel();
    expect(await screen.findByText(/key tag 4242, Ed25519, NSEC\)/)).toBeTruthy();
    const algorithm = screen.getByLabelText('Algorithm') as HTMLSelectElement;
    expect(algorithm.value).toBe('15');
    expect(algorithm.disabled).toBe(false);
    expect(screen.getByText(/starts an algorithm rollover/)).toBeTruthy();
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

  it('signed: choosing the other algorithm offers a rollover, and before the wallet opens says what is signed', async () => {
    serve('offers dnssec', STATE);
    renderPanel();
    fireEvent.change(await screen.findByLabelText('Algorithm'), { target: { value: '15' } });
    expect(screen.queryByRole('button', { name: /Sign with/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Roll over to algorithm 15' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll panel.com over to algorithm 15?' });
    expect(dialog.textContent).toMatch(/never leaves the zone unsigned or invalid/);
    expect(dialog.textContent).toMatch(/Roll panel\.com over from algorithm 13 \(ECDSA P-256 with SHA-256\) to 15 \(Ed25519\), NSEC \(SetDnssec\)/);
  });

  const ROLLING = {
    from: { algorithm: 13 as const, keyTag: 4242, ds: STATE.dsRecords[0] },
    to: { algorithm: 15 as const, keyTag: 777, ds: `panel.com. 3600 IN DS 777 15 2 ${'CD'.repeat(32)}` },
    since: '2026-12-07T00:00:00.000Z',
  };

  it('rolling over, before the new DS may go: keep the old DS, not yet the new one, and when; no other algorithm meanwhile', async () => {
    serve('offers dnssec', { ...STATE, rollover: { ...ROLLING, phase: 'new-dnskey', nextStepAt: '2026-12-07T05:00:00.000Z' } });
    renderPanel();
    const steps = await screen.findByTestId('dnssec-rollover');
    expect(steps.textContent).toMatch(/from algorithm 13 to 15, step 2 of 5: both keys published/);
    expect(steps.textContent).toMatch(/Keep the DS of key 4242 at your registrar/);
    expect(steps.textContent).toMatch(/Do not add the new DS yet: this panel shows it when the registrar may take it, on 7 Dec 2026, 05:00 UTC/);
    expect(screen.queryByLabelText('New DS record')).toBeNull();
    expect(screen.queryByRole('button', { name: /registrar holds/ })).toBeNull();
    const algorithm = screen.getByLabelText('Algorithm') as HTMLSelectElement;
    expect([algorithm.value, algorithm.disabled]).toEqual(['15', true]);
    // The proof of absence may still change; what is signed then names the algorithm rolled to, not another rollover.
    fireEvent.change(screen.getByLabelText('Proof that a name does not exist'), { target: { value: 'nsec3' } });
    expect(screen.getByRole('button', { name: 'Sign with NSEC3' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Roll over/ })).toBeNull();
  });

  it('rolling over, at the new DS: which DS to add, that the old one may go, and what the owner signs to say it is done', async () => {
    const NEW_DS = { keyTag: 777, algorithm: 15 as const, digestType: 2 as const, digest: 'CD'.repeat(32) };
    serve('offers dnssec', { ...STATE, algorithm: 15, keyTag: 777, ds: [NEW_DS], dsRecords: [ROLLING.to.ds], rollover: { ...ROLLING, phase: 'new-ds', nextStepAt: null } });
    renderPanel();
    const steps = await screen.findByTestId('dnssec-rollover');
    expect(steps.textContent).toMatch(/Add this DS \(key 777, algorithm 15\) at your registrar now/);
    expect(screen.getByLabelText('New DS record').textContent).toBe(ROLLING.to.ds);
    expect(steps.textContent).toMatch(/The old DS \(key 4242\) may be removed at the same time/);
    expect(screen.getByText('DS record your registrar should hold now')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'The registrar holds the new DS' }));
    const dialog = await screen.findByRole('dialog', { name: /Does the registrar of panel\.com hold the new DS/ });
    expect(dialog.textContent).toMatch(/now holds the DS of key 777, algorithm 15 \(ConfirmParentDs\): the service then removes the old key 4242/);
  });
});
