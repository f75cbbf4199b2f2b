import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useRequireSignIn } from '@/lib/session/use-session.ts';

/**
 * Buying needs a signed-in wallet: connect and sign in first, then continue to checkout with the
 * name and years in the URL, so a reload or a return from the wallet lands in the same place.
 */
export function useBuy(): (name: string, years: number) => Promise<void> {
  const requireSignIn = useRequireSignIn();
  const navigate = useNavigate();
  return useCallback(
    async (name, years) => {
      if (!(await requireSignIn())) return;
      navigate(`/checkout/${encodeURIComponent(name)}?years=${years}`);
    },
    [requireSignIn, navigate],
  );
}
