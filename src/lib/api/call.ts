import { operations, type OperationId, type OperationOutput } from '#core/operations/index.ts';
import { config } from '../config.ts';
import { endSession, walletSession } from '../session/wallet-session.ts';
import { settingsStore } from '../settings/settings-store.ts';
import { callOperation, type CallArgs } from './client.ts';
import { readCredential } from './credentials.ts';
import { ApiError } from './errors.ts';

/**
 * Calls an operation with the credentials of this moment (read at call time, so a query retried after
 * signing in uses the new token). A 401 on a call made with the SIWE token means the service no longer
 * knows the session: it ends, and the layout asks the person to sign in again where they are.
 */
export async function apiCall<K extends OperationId>(
  id: K,
  args: CallArgs = {},
  extra: { headers?: Record<string, string>; credential?: ApiError['credential']; signal?: AbortSignal } = {},
): Promise<OperationOutput<K>> {
  const base = extra.headers
    ? { headers: extra.headers, credential: extra.credential ?? 'signature' }
    : readCredential(config.headerPrefix, operations[id].auth, {
        apiKey: settingsStore.getState().apiKey,
        siweToken: walletSession.getState().session?.token,
        delegated: settingsStore.getState().delegated,
      });
  try {
    return await callOperation(id, args, {
      baseUrl: config.apiBaseUrl,
      headers: base.headers,
      credential: base.credential,
      signal: extra.signal,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && error.credential === 'siwe') {
      endSession('rejected-by-service');
    }
    throw error;
  }
}
