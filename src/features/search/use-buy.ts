import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { SignInCancelledError, useWalletSession } from '@/lib/session/wallet-session.ts';

/**
 * Buying needs a signed-in wallet: connect and sign in first, then continue to checkout with the
 * name and years in the URL, so a reload or a return from the wallet lands in the same place.
 */
export function useBuy(): (name: string, years: number) => Promise<void> {
  const { requestSignIn } = useWalletSession();
  const navigate = useNavigate();
  return useCallback(
    async (name, years) => {
      try {
        await requestSignIn();
      } catch (error) {
        if (error instanceof SignInCancelledError) return;
        throw error;
      }
      navigate(`/checkout/${encodeURIComponent(name)}?years=${years}`);
    },
    [requestSignIn, navigate],
  );
}
