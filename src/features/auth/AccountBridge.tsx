import { useEffect } from 'react';
import { useAccount } from 'wagmi';
import { accountStore } from '@/lib/wallet/wallet-runtime.ts';

/** Mirrors wagmi's account into accountStore, so code outside the island (useSession) can read it. */
export function AccountBridge() {
  const { status, address, chainId } = useAccount();
  useEffect(() => {
    accountStore.set({ status, address, chainId });
  }, [status, address, chainId]);
  useEffect(() => () => accountStore.set({ status: 'disconnected' }), []);
  return null;
}
