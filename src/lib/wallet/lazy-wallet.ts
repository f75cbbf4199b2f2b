import type { Wallet, WalletList } from '@rainbow-me/rainbowkit';

type CreateWalletFn = WalletList[number]['wallets'][number];
import type { CreateConnectorFn } from 'wagmi';

/**
 * Wallet SDKs (MetaMask SDK, Coinbase, WalletConnect) are dynamic imports inside their connectors, but
 * wagmi's connector `setup` runs at start-up and loads them (WalletConnect then dials its relay). This
 * wrapper drops `setup`, so an SDK loads only when a person picks that wallet; the connector still
 * installs its listeners when it connects.
 */
export function lazyWallet(create: (params: Parameters<CreateWalletFn>[0]) => Wallet): CreateWalletFn {
  return (params) => {
    const wallet = create(params);
    return {
      ...wallet,
      createConnector: (details) => {
        const inner = wallet.createConnector(details);
        const wrapped: CreateConnectorFn = (cfg) => {
          const connector = inner(cfg);
          return { ...connector, setup: undefined, lazy: true } as typeof connector;
        };
        return wrapped;
      },
    };
  };
}

/** Connectors that may be asked about a previous connection at start-up without loading an SDK. */
export function isLightConnector(connector: object): boolean {
  return !('lazy' in connector && connector.lazy === true);
}
