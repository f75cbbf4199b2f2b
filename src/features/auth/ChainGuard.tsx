import { useEffect, useRef, useState } from 'react';
import { useAccount, useConfig, useSwitchChain } from 'wagmi';
import { Button, Notice } from '@/ui/index.ts';
import { config } from '@/lib/config.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';
import { requestSignIn, useWalletSessionState, walletSession } from '@/lib/session/wallet-session.ts';
import { chainName } from '@/lib/wallet/chains.ts';
import { useQuery } from '@tanstack/react-query';
import { allowedChainsQuery } from './allowed-chains.ts';
import { useNetworkCheck } from './sign-in-blocks.ts';

/**
 * When the wallet sits on a chain this service does not accept for sign-in, ask the wallet to switch
 * (adding the chain when the wallet lacks it) before sign-in asks for a signature, once per chain the wallet lands on.
 * A refusal leaves this notice with the button that asks again; the sign-in dialog stays closed meanwhile.
 */
export function ChainGuard() {
  const { chainId, address } = useAccount();
  const wagmiConfig = useConfig();
  const allowed = useQuery(allowedChainsQuery);
  const network = useNetworkCheck();
  const { switchChainAsync, isPending } = useSwitchChain();
  const [refused, setRefused] = useState<string>();
  const asked = useRef<string>(undefined);
  const hasSession = !!useWalletSessionState((s) => s.session);

  useEffect(() => {
    if (network.state === 'fits' && chainId) walletSession.setState({ lastAllowedChain: chainId });
  }, [network.state, chainId]);

  const target = network.state === 'wrong' ? network.target : undefined;
  const askToSwitch = async (chain: number) => {
    setRefused(undefined);
    const rpcUrl = config.rpcUrls[chain];
    try {
      await switchChainAsync({ chainId: chain, ...(rpcUrl ? { addEthereumChainParameter: { rpcUrls: [rpcUrl] } } : {}) });
      // Switched before any signature: carry on to signing in, unless a session already holds.
      if (!walletSession.getState().session) void requestSignIn();
    } catch (error) {
      setRefused(
        isUserRejection(error)
          ? 'Your wallet did not switch.'
          : `Your wallet could not switch: ${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'}.`,
      );
    }
  };

  // Only before signing in: a signed-in person who changes network in the wallet chose to; the notice offers the way back.
  useEffect(() => {
    if (target === undefined || !address || !chainId || hasSession) return;
    const key = `${address}:${chainId}`;
    if (asked.current === key) return;
    asked.current = key;
    void askToSwitch(target);
    // askToSwitch reads only stable values; asking once per wallet and chain is the point.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target, address, chainId, hasSession]);

  if (network.state !== 'wrong' || !chainId || !allowed.data) return null;
  const current = chainName(chainId, wagmiConfig.chains);
  return (
    <Notice
      tone="warning"
      title={`This service does not accept ${current}`}
      actions={
        target !== undefined ? (
          <Button size="sm" loading={isPending} onClick={() => void askToSwitch(target)}>
            Switch to {chainName(target, wagmiConfig.chains)}
          </Button>
        ) : null
      }
    >
      {refused ? `${refused} ` : isPending ? 'Asking your wallet to switch… ' : ''}
      Signing in and signed requests work on {allowed.data.map((id) => chainName(id, wagmiConfig.chains)).join(', ')}.
    </Notice>
  );
}
