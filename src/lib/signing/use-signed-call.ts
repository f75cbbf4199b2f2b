import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OperationId, OperationOutput } from '@/core/operations.ts';
import { ACCEPTED_PRIMARY_TYPES } from '@/core/eip712/registry.ts';
import type { SigningDomain, TypeRegistry, TypesForMethod } from '@/core/wire/eip712.ts';
import { apiCall } from '../api/call.ts';
import { delegatedHeaders } from '../api/credentials.ts';
import { config } from '../config.ts';
import { eip712Key } from '../query-keys.ts';
import { sessionStore } from '../session/session.ts';
import { actingFor, delegatedWriteError } from '../session/acting.ts';
import { useRequireSignIn } from '../session/use-session.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { accountStore, whenWalletReady } from '../wallet/wallet-runtime.ts';
import { signRequest } from './sign-request.ts';
import { typesFromRegistry } from './signing-types.ts';
import { WalletRequiredError } from './errors.ts';

const forSession = { staleTime: Infinity, gcTime: Infinity } as const;

/**
 * The signing domain and the structs of one operation. Both come from the service once per session and
 * service (a new service means a new page load): the domain and the whole type registry, from which each
 * operation's structs are taken by the contract's table of accepted primary types. Only an operation that
 * table cannot answer for against this registry costs a `types-for-method` request (once per operation).
 */
async function signingMetadata(queryClient: QueryClient, id: OperationId): Promise<[SigningDomain, TypesForMethod]> {
  const [domain, registry] = await Promise.all([
    queryClient.fetchQuery<SigningDomain>({
      queryKey: eip712Key(config.apiBaseUrl, 'domain'),
      queryFn: () => apiCall('getEip712Domain'),
      ...forSession,
    }),
    queryClient.fetchQuery<TypeRegistry>({
      queryKey: eip712Key(config.apiBaseUrl, 'types'),
      queryFn: () => apiCall('getAllEip712Types'),
      ...forSession,
    }),
  ]);
  const types =
    typesFromRegistry(registry, ACCEPTED_PRIMARY_TYPES, id) ??
    (await queryClient.fetchQuery<TypesForMethod>({
      queryKey: eip712Key(config.apiBaseUrl, 'types-for-method', id),
      queryFn: () => apiCall('getEip712TypesForMethod', { query: { method: id } }),
      ...forSession,
    }));
  return [domain, types];
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
      }).catch((error: unknown) => {
        // A delegated account that refuses this wallet's signature is explained as such, with what to do.
        throw delegatedWriteError(error, actingFor(signer, settings.delegated));
      });
    },
    [queryClient, requireSignIn],
  );
  return { signAndCall };
}
