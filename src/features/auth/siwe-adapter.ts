import { createAuthenticationAdapter } from '@rainbow-me/rainbowkit';
import type { QueryClient } from '@tanstack/react-query';
import { refreshAfterWrite } from '@/lib/freshness/refresh.ts';
import type { Config } from 'wagmi';
import { getAccount } from 'wagmi/actions';
import type { SiweMessage } from '#core/wire/siwe.ts';
import { apiCall } from '@/lib/api/call.ts';
import { actingFor, delegatedSignInError, sameAddress, type Acting } from '@/lib/session/acting.ts';
import type { SessionEndReason, WalletSessionStore } from '@/lib/session/wallet-session.ts';
import { ChainNotAllowedError, SiweRefusedError, canReuseNonce, fetchNonce, prepareMessage, verifySignature } from '@/lib/session/siwe-flow.ts';
import type { DelegatedAccount } from '@/lib/settings/settings-store.ts';
import { allowedChainsQuery } from './allowed-chains.ts';
import { readServiceOffset } from '@/lib/clock/service-clock.ts';

export interface SiweAdapterDeps {
  wagmiConfig: Config;
  queryClient: QueryClient;
  /** The wallet session: the adapter starts and ends its SIWE session. */
  store: WalletSessionStore;
  apiBaseUrl: string;
  /** host[:port] the message must name. */
  expectedDomain: () => string;
  /** The delegated account the wallet signs in for, read at each step (Settings may change it). */
  delegated: () => DelegatedAccount | undefined;
  /** RainbowKit shows only a generic line on failure; this says what actually happened. */
  onError: (error: unknown) => void;
}

/**
 * RainbowKit's authentication adapter over the service's /siwe/* endpoints. The message is the
 * service's own EIP-4361 text, checked (domain, address, nonce, chain) before the wallet opens.
 * With a delegated account set, the message names that account and the connected wallet signs it: the
 * service asks the account (ERC-1271) whether it accepts the wallet's signature, and the session is the account's.
 */
export function createSiweAdapter(deps: SiweAdapterDeps) {
  const structured = new Map<string, { message: SiweMessage; acting: Acting }>();
  const usedNonces = new Set<string>();
  /** A nonce is issued to one address: the account the sign-in is for. */
  const nonceFor = new Map<string, string>();
  const currentAddress = () => getAccount(deps.wagmiConfig).address;
  const issueNonce = async (account: string) => {
    const nonce = await fetchNonce(apiCall, account);
    nonceFor.set(nonce, account);
    return nonce;
  };

  return createAuthenticationAdapter<string>({
    async getNonce() {
      const address = currentAddress();
      if (!address) throw new Error('No wallet connected');
      try {
        return await issueNonce(actingFor(address, deps.delegated()).account);
      } catch (error) {
        deps.onError(error);
        throw error;
      }
    },
    async createMessage({ nonce, address, chainId }) {
      try {
        const allowed = await deps.queryClient.fetchQuery(allowedChainsQuery);
        if (!allowed.includes(chainId)) throw new ChainNotAllowedError(chainId, allowed);
        const acting = actingFor(address, deps.delegated());
        // RainbowKit keeps the first nonce across attempts; a nonce serves one message, for one address.
        const reusable = canReuseNonce(nonce, { used: usedNonces, issuedTo: nonceFor }, acting.account);
        const fresh = reusable ? nonce : await issueNonce(acting.account);
        usedNonces.add(fresh);
        const result = await prepareMessage(apiCall, { address: acting.account, nonce: fresh, chainId, expectedDomain: deps.expectedDomain() });
        structured.set(result.messageString, { message: result.message, acting });
        return result.messageString;
      } catch (error) {
        deps.onError(error);
        throw error;
      }
    },
    async verify({ message, signature }) {
      const prepared = structured.get(message);
      if (!prepared) return false;
      const { message: signed, acting } = prepared;
      try {
        // A local test clock may run ahead of this device: the session's end is put on this device's clock.
        const session = await verifySignature(apiCall, { address: signed.address, message: signed, signature }, await readServiceOffset()).catch((error: unknown) => {
          // Refused while signing in for a delegated account: the account does not accept this wallet.
          throw delegatedSignInError(error, acting, error instanceof SiweRefusedError ? error.reason : undefined);
        });
        structured.clear();
        deps.store.getState().startSession({
          address: acting.account,
          ...(acting.delegated ? { signer: acting.signer } : {}),
          chainId: session.chainId,
          token: session.token,
          expiresAt: session.expiresAt,
          apiBaseUrl: deps.apiBaseUrl,
        });
        // verifySiwe changes whose data the service answers with (its declared `session` fact). Not awaited:
        // RainbowKit closes its modal when this returns, and a slow read would close one opened after it (a
        // switch of account and "Sign in again" while the first sign-in's reads were still on their way).
        void refreshAfterWrite(deps.queryClient, 'verifySiwe', {}).catch(() => undefined);
        return true;
      } catch (error) {
        deps.onError(error);
        throw error;
      }
    },
    async signOut() {
      deps.store.getState().endSession(signOutReason(deps));
    },
  });
}

/** RainbowKit calls signOut on disconnect and on an account switch too; tell them apart for the notice. */
function signOutReason(deps: SiweAdapterDeps): SessionEndReason {
  const account = getAccount(deps.wagmiConfig);
  const session = deps.store.getState().session;
  if (account.status === 'disconnected' || !account.address) return 'disconnected';
  // The wallet that signed the session is compared: the session's own address may be a delegated account.
  if (session && !sameAddress(session.signer ?? session.address, account.address)) return 'account-changed';
  return 'signed-out';
}
