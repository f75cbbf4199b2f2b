import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OperationId, OperationOutput, SignedRequest, SignedOperationId } from '#core/operations/index.ts';
import type { SigningDomain, TypesForMethod } from '#core/wire/eip712.ts';
import { apiCall } from '../api/call.ts';
import { clientHeader, type ClientName } from '#core/headers.ts';
import { delegatedHeaders } from '../api/credentials.ts';
import { config } from '../config.ts';
import { actingFor, delegatedWriteError } from '../session/acting.ts';
import { requestSignIn, SignInCancelledError, walletSession, whenWalletReady } from '../session/wallet-session.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { signRequest } from './sign-request.ts';
import { refuseOutsideGrant } from './grant-guard.ts';
import { signingDomainQuery, typesForMethodQuery } from './signing-queries.ts';
import { UnsignableRequestError, WalletRequiredError } from './errors.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { fitNotes } from '#core/eip712/envelope.ts';
import { readServiceOffset, serviceNowSeconds } from '../clock/service-clock.ts';
import { writeThenRefresh } from '../freshness/refresh.ts';

/**
 * The signing domain and the structs of one operation, as `/eip712/types-for-method` answers for it: asked once per
 * session and service (a new service means a new page load), usually already there because the page that signs
 * prefetched it (useSigningTypes).
 */
function signingMetadata(queryClient: QueryClient, id: OperationId): Promise<[SigningDomain, TypesForMethod]> {
  return Promise.all([queryClient.fetchQuery(signingDomainQuery()), queryClient.fetchQuery(typesForMethodQuery(id))]);
}

/** Signs in, or says a wallet is needed when the person closes the sign-in window instead. */
async function signInForWrite(): Promise<void> {
  await requestSignIn().catch((error: unknown) => {
    throw error instanceof SignInCancelledError ? new WalletRequiredError() : error;
  });
}

export interface SignedCallOptions {
  /** Names the client that prepared the change, for the history (`mcp`: an agent's prepare_signature link). */
  client?: ClientName;
}

/**
 * Writes: with an API key in settings, a plain call with the key. Otherwise the payload is wrapped in
 * an EIP-712 envelope the wallet signs. Where the service publishes no type for the operation, the
 * API key or SIWE token is used, as the contract says. A declined signature throws SignatureRejectedError;
 * a refused signature (401) leaves the session alone, so the person can simply sign again. Once the service
 * accepted the write, every view of what the operation declares it changes is read again before this resolves
 * (writeThenRefresh): no hook decides that by hand.
 */
export function useSignedCall(): {
  signAndCall<K extends SignedOperationId>(id: K, payload: SignedRequest<K>, options?: SignedCallOptions): Promise<OperationOutput<K>>;
} {
  const queryClient = useQueryClient();
  const send = useCallback(
    async <K extends SignedOperationId>(id: K, payload: SignedRequest<K>, options: SignedCallOptions = {}): Promise<OperationOutput<K>> => {
      const settings = settingsStore.getState();
      if (settings.apiKey) return apiCall(id, { body: payload });
      // A grantee's write outside their grant is refused here, before anything opens.
      refuseOutsideGrant(queryClient, walletSession.getState().account.address, id, payload as Record<string, unknown>);
      const [domain, types] = await signingMetadata(queryClient, id);
      // A record's comment and tags go only to a service whose structs sign them (production's do not).
      const sent = fitNotes(types.types, payload);
      const choice = chooseSigning(types, sent);
      // Said before any wallet or sign-in opens: nothing is signed over less than is sent.
      if (choice.how === 'cannot') throw new UnsignableRequestError(choice.unsigned);
      if (choice.how === 'session') {
        if (!walletSession.getState().session) await signInForWrite();
        return apiCall(id, { body: sent });
      }
      const wagmiConfig = await whenWalletReady();
      if (!walletSession.getState().account.address) await signInForWrite();
      const { getAccount, signTypedData } = await import('wagmi/actions');
      const signer = getAccount(wagmiConfig).address;
      if (!signer) throw new WalletRequiredError();
      // Stamped by the service's clock (a local test clock may run ahead of this device).
      const timestamp = serviceNowSeconds(await readServiceOffset());
      const signed = await signRequest({
        prefix: config.headerPrefix,
        timestamp,
        signer,
        domain,
        typesForMethod: types,
        payload: sent,
        sign: (typedData) =>
          signTypedData(wagmiConfig, {
            account: signer,
            domain: typedData.domain,
            types: typedData.types,
            primaryType: typedData.primaryType,
            message: typedData.message,
          }),
      });
      return apiCall(id, { body: signed.body }, {
        headers: { ...signed.headers, ...delegatedHeaders(config.headerPrefix, settings.delegated), ...(options.client ? { [clientHeader(config.headerPrefix)]: options.client } : {}) },
        credential: 'signature',
      }).catch((error: unknown) => {
        // A delegated account that refuses this wallet's signature is explained as such, with what to do.
        throw delegatedWriteError(error, actingFor(signer, settings.delegated));
      });
    },
    [queryClient],
  );
  const signAndCall = useCallback(
    async <K extends SignedOperationId>(id: K, payload: SignedRequest<K>, options: SignedCallOptions = {}): Promise<OperationOutput<K>> => {
      return writeThenRefresh(queryClient, id, payload, () => send(id, payload, options));
    },
    [queryClient, send],
  );
  return { signAndCall };
}
