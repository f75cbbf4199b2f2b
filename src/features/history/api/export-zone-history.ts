import { operations, operationPath } from '#core/operations/index.ts';
import { buildUrl } from '@/lib/api/client.ts';
import { readCredential } from '@/lib/api/credentials.ts';
import { errorFromResponse } from '@/lib/api/errors.ts';
import { config } from '@/lib/config.ts';
import { walletSession } from '@/lib/session/wallet-session.ts';
import { settingsStore } from '@/lib/settings/settings-store.ts';

/**
 * GET /dns/history/export: every entry of the zone, oldest first, as NDJSON text. Not JSON, so it is read here
 * rather than through the JSON client; the credential is the one every read carries.
 */
export async function exportZoneHistory(zoneName: string): Promise<string> {
  const op = operations.exportZoneHistory;
  const { headers } = readCredential(config.headerPrefix, op.auth, {
    apiKey: settingsStore.getState().apiKey,
    siweToken: walletSession.getState().session?.token,
    delegated: settingsStore.getState().delegated,
  });
  const response = await fetch(buildUrl(config.apiBaseUrl, operationPath(op.path), { zoneName }), { headers: { accept: 'application/x-ndjson', ...headers } });
  const text = await response.text();
  if (!response.ok) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the text is the message.
    }
    throw errorFromResponse(response.status, body, response.headers.get('retry-after'));
  }
  return text;
}
