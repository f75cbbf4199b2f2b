import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAccount, useConfig, useSwitchChain } from 'wagmi';
import { Button, Notice } from '@/ui/index.ts';
import { chainName } from '@/lib/wallet/chains.ts';
import { allowedChainsQuery } from './allowed-chains.ts';

/**
 * When the wallet sits on a chain this service does not accept for sign-in, say so and offer the
 * way back: the allowed chain the wallet was on last, else the first allowed chain the dashboard knows.
 */
export function ChainGuard() {
  const { chainId, isConnected } = useAccount();
  const wagmiConfig = useConfig();
  const allowed = useQuery(allowedChainsQuery);
  const { switchChain, isPending } = useSwitchChain();
  const lastAllowed = useRef<number | undefined>(undefined);
  const allowedIds = allowed.data;
  const isAllowed = !!chainId && !!allowedIds?.includes(chainId);

  useEffect(() => {
    if (isAllowed) lastAllowed.current = chainId;
  }, [isAllowed, chainId]);

  if (!isConnected || !chainId || !allowedIds || isAllowed) return null;
  const known = wagmiConfig.chains.filter((c) => allowedIds.includes(c.id)).map((c) => c.id);
  const target = lastAllowed.current ?? known[0];
  const current = chainName(chainId, wagmiConfig.chains);
  return (
    <Notice
      tone="warning"
      title={`This service does not accept ${current}`}
      actions={
        target !== undefined ? (
          <Button size="sm" loading={isPending} onClick={() => switchChain({ chainId: target })}>
            Switch to {chainName(target, wagmiConfig.chains)}
          </Button>
        ) : null
      }
    >
      Signing in and signed requests work on{' '}
      {allowedIds.map((id) => chainName(id, wagmiConfig.chains)).join(', ')}.
    </Notice>
  );
}
