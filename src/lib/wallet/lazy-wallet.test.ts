import { describe, expect, it } from 'vitest';
import { createConnector } from 'wagmi';
import type { Wallet } from '@rainbow-me/rainbowkit';
import { isLightConnector, lazyWallet } from './lazy-wallet.ts';
import { walletList } from './wagmi-config.ts';

describe('lazyWallet', () => {
  it("drops the connector's start-up setup (which would load its SDK) and marks it lazy", async () => {
    let setupRuns = 0;
    let providerLoads = 0;
    const heavy = (): Wallet =>
      ({
        id: 'heavy',
        name: 'Heavy',
        iconUrl: 'data:image/svg+xml,',
        iconBackground: '#fff',
        createConnector: () =>
          createConnector(() => ({
            id: 'heavy',
            name: 'Heavy',
            type: 'heavy',
            async setup() {
              setupRuns++;
            },
            async getProvider() {
              providerLoads++;
              return {};
            },
          }) as never),
      }) as Wallet;
    const wallet = lazyWallet(heavy)({ projectId: 'p', appName: 'a' } as never);
    const connector = wallet.createConnector({ rkDetails: {} } as never)({} as never) as unknown as { setup?: () => Promise<void>; getProvider(): Promise<unknown> };
    expect(connector.setup).toBeUndefined();
    expect(isLightConnector(connector)).toBe(false);
    expect(setupRuns).toBe(0);
    expect(providerLoads).toBe(0);
    await connector.getProvider();
    expect(providerLoads).toBe(1);
    expect(isLightConnector({ type: 'injected' })).toBe(true);
  });

  it('offers the production wallets by default and only injected ones in the e2e setting', () => {
    expect(walletList('injected').flatMap((g) => g.wallets)).toHaveLength(1);
    const all = walletList('all').flatMap((g) => g.wallets.map((w) => w({ projectId: 'p', appName: 'a' } as never).id));
    expect(all).toEqual(expect.arrayContaining(['metaMask', 'coinbase', 'rainbow', 'walletConnect', 'injected']));
  });
});
