import { useConnectModal } from '@rainbow-me/rainbowkit';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useToast } from '@/ui/index.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';
import { authModalOpen, signInRequest } from '@/lib/session/session.ts';
import { useStore } from '@/lib/store.ts';
import { startupReconnectDone } from './reconnect-state.ts';

/**
 * Connects code outside the island to RainbowKit's modal: a pending request to sign in opens it as soon
 * as RainbowKit can, its open state is mirrored for useRequireSignIn, and a declined sign-in signature
 * gets a calm word instead of silence.
 */
export function SignInBridge() {
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { pending } = useStore(signInRequest);
  const settled = useStore(startupReconnectDone);
  const queryClient = useQueryClient();
  const { toast } = useToast();

  useEffect(() => authModalOpen.set(connectModalOpen), [connectModalOpen]);

  useEffect(() => {
    if (!pending || !settled) return;
    if (connectModalOpen) {
      signInRequest.set({ pending: false });
      return;
    }
    if (!openConnectModal) return;
    // RainbowKit closes its modals in its own mount effects, which run after ours: open on the next tick.
    const timer = setTimeout(() => {
      signInRequest.set({ pending: false });
      openConnectModal();
    }, 0);
    return () => clearTimeout(timer);
  }, [pending, settled, openConnectModal, connectModalOpen]);

  // One word per declined signature, however often the cache reports the same failed mutation.
  const said = useRef(new Set<number>());
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        if (event.mutation.options.mutationKey?.[0] !== 'signMessage') return;
        if (!isUserRejection(event.action.error)) return;
        if (said.current.has(event.mutation.mutationId)) return;
        said.current.add(event.mutation.mutationId);
        toast({
          tone: 'info',
          title: 'Sign-in cancelled',
          description: 'You declined the signature, so you are not signed in and nothing was sent. Sign message asks again.',
        });
      }),
    [queryClient, toast],
  );
  return null;
}
