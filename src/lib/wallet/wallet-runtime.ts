import type { Config } from 'wagmi';
import { createStore } from '../store.ts';
import { browserStorage } from '../browser-storage.ts';
import { readStored, STORAGE_KEYS } from '../settings/storage.ts';

/**
 * The wallet stack (wagmi, RainbowKit, viem's clients, the wallet SDKs) is an island loaded on demand:
 * when a person asks to connect or sign, or at start for a returning visitor (a remembered wallet or
 * session). The first page of a new visitor never loads it. Code outside the island reads the account
 * from accountStore and waits for the island with whenWalletReady().
 */
export interface WalletAccount {
  status: 'disconnected' | 'connecting' | 'reconnecting' | 'connected';
  address?: `0x${string}`;
  chainId?: number;
}

export const accountStore = createStore<WalletAccount>({ status: 'disconnected' });

/** wagmi keeps its state under this storage key prefix (see wagmi-config.ts). */
export const WAGMI_STORAGE_KEY = 'namefi.wagmi';

function returningVisitor(): boolean {
  // In a frame the host may be Safe{Wallet}: the island loads at once, so the Safe connects without a click.
  if (typeof window !== 'undefined' && window.parent !== window) return true;
  const storage = browserStorage();
  if (!storage) return false;
  try {
    if (storage.getItem(`${WAGMI_STORAGE_KEY}.recentConnectorId`)) return true;
  } catch {
    return false;
  }
  return readStored(STORAGE_KEYS.session) !== undefined;
}

export const walletRuntime = createStore<{ wanted: boolean; config?: Config }>({ wanted: returningVisitor() });

export function wantWallet(): void {
  walletRuntime.set((s) => (s.wanted ? s : { ...s, wanted: true }));
}

/** Loads the island if needed and resolves with its wagmi config once it is mounted. */
export function whenWalletReady(): Promise<Config> {
  wantWallet();
  const ready = walletRuntime.get().config;
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve) => {
    const unsubscribe = walletRuntime.subscribe(() => {
      const config = walletRuntime.get().config;
      if (config) {
        unsubscribe();
        resolve(config);
      }
    });
  });
}
