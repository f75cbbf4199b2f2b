import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OperationId, OperationOutput } from '@/core/operations.ts';
import type { SigningDomain, TypesForMethod } from '@/core/wire/eip712.ts';
import { apiCall } from '../api/call.ts';
import { delegatedHeaders } from '../api/credentials.ts';
import { config } from '../config.ts';
import { eip712Key } from '../query-keys.ts';
import { sessionStore } from '../session/session.ts';
import { useRequireSignIn } from '../session/use-session.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { accountStore, whenWalletReady } from '../wallet/wallet-runtime.ts';
import { signRequest } from './sign-request.ts';
import { WalletRequiredError } from './errors.ts';

function signingMetadata(queryClient: QueryClient, id: OperationId) {
  // Fetched once per session and service; a new service means a new page load.
  return Promise.all([
    queryClient.fetchQuery<SigningDomain>({
      queryKey: eip712Key(config.apiBaseUrl, 'domain'),
      queryFn: () => apiCall('getEip712Domain'),
      staleTime: Infinity,
      gcTime: Infinity,
    }),
    queryClient.fetchQuery<TypesForMethod>({
      queryKey: eip712Key(config.apiBaseUrl, 'types-for-method', id),
      queryFn: () => apiCall('getEip712TypesForMethod', { query: { method: id } }),
      staleTime: Infinity,
      gcTime: Infinity,
    }),
  ]);
}

/**
 * Writes: with an API key in settings, a plain call with the key. Otherwise the payload is wrapped in
 * an EIP-712 envelope the wallet signs. Where the service publishes no type for the operation, the
 * API key or SIWE token is used, as the contract says. A declined signature throws SignatureRejectedError;
 * a refused signature (401) leaves the session alone, so the person can simply sign again.
 */
export function useSignedCall(): {
  signAndCall<K extends OperationId>(id: K, payload: Record<string, unknown>): Promise<OperationOutput<K>>;
} {
  const queryClient = useQueryClient();
  const requireSignIn = useRequireSignIn();
  const signAndCall = useCallback(
    async <K extends OperationId>(id: K, payload: Record<string, unknown>): Promise<OperationOutput<K>> => {
      const settings = settingsStore.get();
      if (settings.apiKey) return apiCall(id, { body: payload });
      const [domain, types] = await signingMetadata(queryClient, id);
      if (!types.found) {
        if (!sessionStore.get().session && !(await requireSignIn())) throw new WalletRequiredError();
        return apiCall(id, { body: payload });
      }
      const wagmiConfig = await whenWalletReady();
      if (!accountStore.get().address && !(await requireSignIn())) throw new WalletRequiredError();
      const { getAccount, signTypedData } = await import('wagmi/actions');
      const signer = getAccount(wagmiConfig).address;
      if (!signer) throw new WalletRequiredError();
      const signed = await signRequest({
        prefix: config.headerPrefix,
        signer,
        domain,
        typesForMethod: types,
        payload,
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
        headers: { ...signed.headers, ...delegatedHeaders(config.headerPrefix, settings.delegated) },
        credential: 'signature',
      });
    },
    [queryClient, requireSignIn],
  );
  return { signAndCall };
}
