import { connectorsForWallets, type WalletList } from '@rainbow-me/rainbowkit';
import {
  coinbaseWallet,
  injectedWallet,
  metaMaskWallet,
  rainbowWallet,
  walletConnectWallet,
} from '@rainbow-me/rainbowkit/wallets';
import { createConfig, createStorage } from 'wagmi';
import type { DashboardConfig } from '../config.ts';
import { chainTransports, dashboardChains } from './chains.ts';
import { lazyWallet } from './lazy-wallet.ts';
import { inFrame, safeAppWallet } from './safe-app-wallet.ts';

export function walletList(mode: DashboardConfig['walletMode'], safeAppOrigins: readonly string[] = []): WalletList {
  // Opened as a Safe App (in a frame a Safe App host may open): the Safe first, then whatever else is there.
  const safeApp: WalletList = inFrame() && safeAppOrigins.length > 0 ? [{ groupName: 'Safe', wallets: [safeAppWallet(safeAppOrigins)] }] : [];
  if (mode === 'injected') return [...safeApp, { groupName: 'Browser wallets', wallets: [injectedWallet] }];
  // Coinbase's SDK offers its smart wallet (passkeys, no extension) first.
  coinbaseWallet.preference = 'smartWalletOnly';
  return [
    ...safeApp,
    {
      groupName: 'Popular',
      wallets: [
        lazyWallet(metaMaskWallet),
        lazyWallet(coinbaseWallet),
        lazyWallet(rainbowWallet),
        lazyWallet(walletConnectWallet),
      ],
    },
    { groupName: 'Browser wallets', wallets: [injectedWallet] },
  ];
}

export function createWagmiConfig(cfg: DashboardConfig) {
  const chains = dashboardChains(cfg);
  const connectors = connectorsForWallets(walletList(cfg.walletMode, cfg.safeAppOrigins), {
    appName: cfg.appName,
    projectId: cfg.walletConnectProjectId,
  });
  return createConfig({
    chains,
    connectors,
    transports: chainTransports(chains, cfg.rpcUrls),
    // Any EIP-6963 wallet in the browser shows up beside the listed ones.
    multiInjectedProviderDiscovery: true,
    storage: createStorage({ storage: typeof window === 'undefined' ? undefined : window.localStorage, key: 'namefi.wagmi' }),
    ssr: false,
  });
}
