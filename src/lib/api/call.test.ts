// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config.ts';
import { walletSession } from '../session/wallet-session.ts';
import { setApiKey, setDelegatedAccount } from '../settings/settings-store.ts';
import { apiCall } from './call.ts';

const unauthorized = () => new Response(JSON.stringify({ defined: true, code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' }), { status: 401 });

function startSession() {
  walletSession.getState().startSession({ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId: 31337, token: 'tok', expiresAt: Date.now() + 60_000, apiBaseUrl: config.apiBaseUrl });
}

describe('apiCall: credentials and what a 401 means', () => {
  const seen: Array<Record<string, string>> = [];
  beforeEach(() => {
    seen.length = 0;
    setApiKey(undefined, false);
    setDelegatedAccount(undefined);
    startSession();
  });
  afterEach(() => vi.unstubAllGlobals());

  function answer(response: () => Response) {
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(init.headers as Record<string, string>);
      return response();
    });
  }

  it('sends the SIWE token and delegated-account header on a session call, nothing on a public one', async () => {
    setDelegatedAccount({ address: '0x0000000000000000000000000000000000000007', kind: 'erc1271' });
    answer(() => new Response('[]', { status: 200 }));
    await apiCall('listApiKeys');
    await apiCall('getSiweAllowedChains');
    expect(seen[0]).toMatchObject({ 'x-namefi-siwe-token': 'tok', 'x-namefi-erc1271-account': '0x0000000000000000000000000000000000000007' });
    expect(seen[1]['x-namefi-siwe-token']).toBeUndefined();
  });

  it('prefers the API key from settings over the session', async () => {
    setApiKey(`nfk_${'a'.repeat(43)}`, false);
    answer(() => new Response('[]', { status: 200 }));
    await apiCall('listApiKeys');
    expect(seen[0]['x-api-key']).toBe(`nfk_${'a'.repeat(43)}`);
    expect(seen[0]['x-namefi-siwe-token']).toBeUndefined();
  });

  it('ends the session when the service refuses its token', async () => {
    answer(unauthorized);
    await expect(apiCall('listApiKeys')).rejects.toMatchObject({ status: 401, credential: 'siwe' });
    expect(walletSession.getState().session).toBeUndefined();
    expect(walletSession.getState().ended?.reason).toBe('rejected-by-service');
  });

  it('keeps the session when a signed write is refused (a stale or replayed envelope)', async () => {
    answer(unauthorized);
    await expect(
      apiCall('createDnsRecord', { body: {} }, { headers: { 'x-namefi-signer': '0x1', 'x-namefi-signature': '0x2', 'x-namefi-eip712-type': 'T' } }),
    ).rejects.toMatchObject({ status: 401, credential: 'signature' });
    expect(walletSession.getState().session?.token).toBe('tok');
  });

  it('keeps the session when an API key is refused', async () => {
    setApiKey(`nfk_${'b'.repeat(43)}`, false);
    answer(unauthorized);
    await expect(apiCall('listApiKeys')).rejects.toMatchObject({ status: 401, credential: 'api-key' });
    expect(walletSession.getState().session?.token).toBe('tok');
  });
});
