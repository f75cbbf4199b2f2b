import { createAuthenticationAdapter } from '@rainbow-me/rainbowkit';
import type { QueryClient } from '@tanstack/react-query';
import type { Config } from 'wagmi';
import { getAccount } from 'wagmi/actions';
import type { SiweMessage } from '@/core/wire/siwe.ts';
import { apiCall } from '@/lib/api/call.ts';
import type { SessionEndReason, SessionStore } from '@/lib/session/session-store.ts';
import { ChainNotAllowedError, fetchNonce, prepareMessage, verifySignature } from '@/lib/session/siwe-flow.ts';
import { allowedChainsQuery } from './allowed-chains.ts';

export interface SiweAdapterDeps {
  wagmiConfig: Config;
  queryClient: QueryClient;
  sessionStore: SessionStore;
  apiBaseUrl: string;
  /** host[:port] the message must name. */
  expectedDomain: () => string;
  /** RainbowKit shows only a generic line on failure; this says what actually happened. */
  onError: (error: unknown) => void;
}

/**
 * RainbowKit's authentication adapter over the service's /siwe/* endpoints. The message is the
 * service's own EIP-4361 text, checked (domain, address, nonce, chain) before the wallet opens.
 */
export function createSiweAdapter(deps: SiweAdapterDeps) {
  const structured = new Map<string, SiweMessage>();
  const usedNonces = new Set<string>();
  const currentAddress = () => getAccount(deps.wagmiConfig).address;

  return createAuthenticationAdapter<string>({
    async getNonce() {
      const address = currentAddress();
      if (!address) throw new Error('No wallet connected');
      try {
        return await fetchNonce(apiCall, address);
      } catch (error) {
        deps.onError(error);
        throw error;
      }
    },
    async createMessage({ nonce, address, chainId }) {
      try {
        const allowed = await deps.queryClient.fetchQuery(allowedChainsQuery);
        if (!allowed.includes(chainId)) throw new ChainNotAllowedError(chainId, allowed);
        // RainbowKit keeps the first nonce across attempts; a nonce serves one message only.
        const fresh = usedNonces.has(nonce) ? await fetchNonce(apiCall, address) : nonce;
        usedNonces.add(fresh);
        const result = await prepareMessage(apiCall, { address, nonce: fresh, chainId, expectedDomain: deps.expectedDomain() });
        structured.set(result.messageString, result.message);
        return result.messageString;
      } catch (error) {
        deps.onError(error);
        throw error;
      }
    },
    async verify({ message, signature }) {
      const signed = structured.get(message);
      if (!signed) return false;
      try {
        const session = await verifySignature(apiCall, { address: signed.address, message: signed, signature });
        structured.clear();
        deps.sessionStore.start({
          address: (currentAddress() ?? signed.address) as `0x${string}`,
          chainId: session.chainId,
          token: session.token,
          expiresAt: session.expiresAt,
          apiBaseUrl: deps.apiBaseUrl,
        });
        await deps.queryClient.invalidateQueries({ queryKey: ['account'] });
        return true;
      } catch (error) {
        deps.onError(error);
        throw error;
      }
    },
    async signOut() {
      deps.sessionStore.end(signOutReason(deps));
    },
  });
}

/** RainbowKit calls signOut on disconnect and on an account switch too; tell them apart for the notice. */
function signOutReason(deps: SiweAdapterDeps): SessionEndReason {
  const account = getAccount(deps.wagmiConfig);
  const session = deps.sessionStore.get().session;
  if (account.status === 'disconnected' || !account.address) return 'disconnected';
  if (session && session.address.toLowerCase() !== account.address.toLowerCase()) return 'account-changed';
  return 'signed-out';
}
