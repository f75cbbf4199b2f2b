// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKeySummary } from '#core/wire/user.ts';
import { config } from '@/lib/config.ts';
import { walletSession } from '@/lib/session/wallet-session.ts';
import { json, renderWithQueries, typesForMethodAnswer } from '../../../test/dashboard/service-edge.tsx';
import AccessPanel from './AccessPanel.tsx';

// The wallet is not what this test is about (e2e/access.spec.ts signs for real).
const signAndCall = vi.hoisted(() => vi.fn());
vi.mock('@/lib/signing/use-signed-call.ts', () => ({ useSignedCall: () => ({ signAndCall }) }));

beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
const key = (id: string, label: string, scope: ApiKeySummary['scope']): ApiKeySummary => ({ id, label, prefix: `nfk_${id}`, createdAt: '2026-11-01T00:00:00.000Z', lastUsedAt: null, lastUsedVia: null, scope, tsig: null });
const KEYS = [
  key('old', 'old script', null),
  key('acme', 'certbot', { zones: ['shop.com'], names: ['_acme', '*._acme'], types: ['TXT'], access: 'write', expiresAt: null, cidrs: [] }),
  key('else', 'elsewhere', { zones: ['other.com'], names: [], types: [], access: 'read', expiresAt: null, cidrs: [] }),
];

function serve(kind: 'production' | 'ours') {
  const fetchMock = vi.fn(async (url: string) => {
    const { pathname, searchParams } = new URL(url);
    if (pathname.endsWith('/eip712/types-for-method')) return json(typesForMethodAnswer(searchParams.get('method') as 'grantZoneAccess', kind !== 'production'));
    if (pathname.endsWith('/eip712/domain')) return json({ name: 'Namefi Local', version: '1' });
    if (pathname.endsWith('/user/api-keys')) return json(KEYS);
    if (pathname.endsWith('/dns/grants') && kind === 'ours') return json([]);
    throw new Error(`unexpected request ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  walletSession.setState({ account: { status: 'connected', address, chainId: 31337 } });
  walletSession.getState().startSession({ address, chainId: 31337, token: 'test-token', expiresAt: Date.now() + 3_600_000, apiBaseUrl: config.apiBaseUrl });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  walletSession.getState().endSession('signed-out');
  signAndCall.mockReset();
});

describe('the Access tab', () => {
  it('against production (no grants): the API keys that reach the domain, no error', async () => {
    const fetchMock = serve('production');
    renderWithQueries(<AccessPanel domain="shop.com" />);
    expect(await screen.findByText(/This service does not offer grants to other wallets/)).toBeTruthy();
    const keys = await screen.findByRole('region', { name: 'API keys that reach shop.com' });
    expect(await within(keys).findByText('old script')).toBeTruthy();
    expect(within(keys).getByText(/Unlimited \(an old key\)/)).toBeTruthy();
    expect(within(keys).getByText(/Writes TXT under _acme and every name below _acme only/)).toBeTruthy();
    expect(within(keys).queryByText('elsewhere')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add a person' })).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/dns/grants'))).toBe(false);
  });

  it('"Add a person" says what the grant allows before the wallet opens, and signs exactly that', async () => {
    serve('ours');
    signAndCall.mockResolvedValue({});
    const user = userEvent.setup();
    renderWithQueries(<AccessPanel domain="shop.com" />);
    const form = await screen.findByRole('form', { name: 'Add a person' });
    expect(await screen.findByText('Nobody else may change shop.com.')).toBeTruthy();
    await user.type(within(form).getByLabelText('Wallet address'), '0xAB00000000000000000000000000000000000Cd1');
    await user.type(within(form).getByLabelText('Names'), 'www, api');
    await user.type(within(form).getByLabelText('Record types'), 'a, aaaa');
    await user.clear(within(form).getByLabelText('Until'));
    await user.type(within(form).getByLabelText('Until'), '2027-03-31');
    await user.click(within(form).getByRole('button', { name: 'Review the grant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Let 0xab…0cd1 help with shop.com?' });
    expect(within(dialog).getByText('0xab…0cd1 may add, change and delete records (A and AAAA under www and api only) of shop.com until 31 March 2027.')).toBeTruthy();
    expect(signAndCall).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Sign and grant' }));
    expect(signAndCall).toHaveBeenCalledWith('grantZoneAccess', {
      zoneName: 'shop.com',
      grantee: '0xab00000000000000000000000000000000000cd1',
      role: 'editor',
      names: ['www', 'api'],
      types: ['A', 'AAAA'],
      expiresAt: Date.parse('2027-03-31T23:59:59Z') / 1000,
    });
  });

  it('refuses a form that is not a grant on its fields', async () => {
    serve('ours');
    const user = userEvent.setup();
    renderWithQueries(<AccessPanel domain="shop.com" />);
    const form = await screen.findByRole('form', { name: 'Add a person' });
    await user.type(within(form).getByLabelText('Wallet address'), 'not an address');
    await user.type(within(form).getByLabelText('Record types'), 'BOGUS');
    await user.click(within(form).getByRole('button', { name: 'Review the grant' }));
    expect(await within(form).findByText('Expected a 0x-prefixed 20-byte address')).toBeTruthy();
    expect(within(form).getByText(/A type is one of/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
