import { test as base, expect } from '@playwright/test';
import type { Hex } from 'viem';
import { TEST_KEYS } from './keys.ts';
import { TestWallet, type WalletMode } from './test-wallet.ts';

function isLocalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

interface Fixtures {
  /** Keys the test wallet holds, first one active. Override with test.use({ walletKeys: [...] }). */
  walletKeys: Hex[];
  walletChainId: number;
  /** How the wallet signs: as MetaMask (the default for every journey) or with viem (smart accounts). */
  walletMode: WalletMode;
  wallet: TestWallet;
  /** URLs that tried to leave this machine; the fixture fails the test if any did. */
  outsideRequests: string[];
}

export const test = base.extend<Fixtures>({
  walletKeys: [[TEST_KEYS.alice, TEST_KEYS.bob], { option: true }],
  walletChainId: [31337, { option: true }],
  walletMode: ['metamask', { option: true }],

  outsideRequests: async ({ context }, use) => {
    const outside: string[] = [];
    await context.route(
      (url) => !isLocalUrl(url.href),
      async (route) => {
        outside.push(`${route.request().method()} ${route.request().url()}`);
        await route.abort('blockedbyclient');
      },
    );
    await context.routeWebSocket(
      (url) => !isLocalUrl(url.href.replace(/^ws/, 'http')),
      (ws) => {
        outside.push(`WS ${ws.url()}`);
        void ws.close();
      },
    );
    await use(outside);
    expect(outside, 'requests that left this machine').toEqual([]);
  },

  page: async ({ page, outsideRequests }, use) => {
    void outsideRequests;
    await use(page);
  },

  wallet: async ({ page, walletKeys, walletChainId, walletMode }, use) => {
    const wallet = new TestWallet(walletKeys, walletChainId, walletMode);
    await wallet.install(page);
    await use(wallet);
  },
});

export { expect };
