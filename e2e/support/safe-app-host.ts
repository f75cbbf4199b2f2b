import { createServer } from 'node:http';
import type { Page } from '@playwright/test';
import { hashMessage, hashTypedData, isHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { safeMessageHash, signAsSafe } from '../../test/chain/safe-accounts.ts';
import { e2eChain } from './chain.ts';
import { DASHBOARD_URL, SAFE_HOST_PORT } from './env.ts';

/**
 * A stand-in for Safe{Wallet} hosting the dashboard as a Safe App: a parent page (served by the test from a
 * server of its own, on another origin than the dashboard) frames it and answers the Safe Apps SDK's postMessage protocol
 * (@safe-global/safe-apps-sdk 9: {id, method, params, env} in, {id, success, version, data | error} out).
 * getSafeInfo and getChainInfo it answers in the page at once (the SDK gives the host only moments); RPC calls and
 * signatures go to Node, where a real Safe on anvil is asked and its owners' keys sign the SafeMessage, as
 * Safe{Wallet} does once the owners have confirmed. No key reaches either page.
 */

/**
 * Another origin than the dashboard's: the dashboard runs cross-origin, as under app.safe.global. A real local server
 * (not page.route): Chromium refuses a page with no address of its own to frame a loopback one.
 */
const SAFE_HOST_ORIGIN = `http://127.0.0.1:${SAFE_HOST_PORT}`;

export interface SafeAppHost {
  /** Opens the host with the dashboard at `path` in its frame. */
  open(path?: string): Promise<void>;
  /** The Safe Apps SDK methods the dashboard called, in order (but getSafeInfo and the like, answered in the page). */
  readonly calls: string[];
  /** Stops the host's server. */
  close(): Promise<void>;
}

interface HostedSafe {
  address: Address;
  owners: Address[];
  threshold: number;
  /** Owners that confirm each signature (as many as the threshold). */
  signerKeys: Hex[];
}

export async function hostAsSafeApp(page: Page, safe: HostedSafe): Promise<SafeAppHost> {
  const { clients } = await e2eChain();
  const chainId = clients.chain.id;
  const signers = safe.signerKeys.map((k) => privateKeyToAccount(k));
  const calls: string[] = [];
  const sign = async (hash: Hex) => ({
    messageHash: safeMessageHash(safe.address, chainId, hash),
    signature: await signAsSafe({ safe: safe.address, chainId, hash, owners: signers }),
  });

  await page.exposeFunction('__safeAppHost', async (method: string, params: Record<string, unknown>) => {
    calls.push(method);
    try {
      switch (method) {
        case 'rpcCall': {
          const { call, params: args } = params as { call: string; params: unknown[] };
          return { ok: true, data: await clients.public.request({ method: call as 'eth_call', params: args as never }) };
        }
        case 'signMessage': {
          // A text, or its bytes as hex (what personal_sign carries): Safe{Wallet} hashes it with EIP-191.
          const message = params.message as string;
          return { ok: true, data: await sign(isHex(message) ? hashMessage({ raw: message }) : hashMessage(message)) };
        }
        case 'signTypedMessage':
          return { ok: true, data: await sign(hashTypedData(params.typedData as never)) };
        default:
          return { ok: false, error: `${method} is not supported by this host` };
      }
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  });

  const safeInfo = { safeAddress: safe.address, chainId, threshold: safe.threshold, owners: safe.owners, isReadOnly: false, network: 'LOCAL' };
  const chainInfo = { chainName: 'Local chain', chainId: String(chainId), shortName: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18, logoUri: '' }, blockExplorerUriTemplate: { address: '', txHash: '', api: '' } };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', SAFE_HOST_ORIGIN).searchParams.get('path') ?? '/';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(hostHtml(`${DASHBOARD_URL}${path.startsWith('/') ? path : '/'}`, safeInfo, chainInfo));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(SAFE_HOST_PORT, '127.0.0.1', resolve);
  });

  return {
    calls,
    async open(path = '/') {
      await page.goto(`${SAFE_HOST_ORIGIN}/?path=${encodeURIComponent(path)}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function hostHtml(appUrl: string, safeInfo: object, chainInfo: object): string {
  const data = JSON.stringify({ appUrl, appOrigin: new URL(appUrl).origin, safeInfo, chainInfo }).replaceAll('<', '\\u003c');
  // The app's frame fits inside the window, below the host's own bar, as in Safe{Wallet}: a frame taller than the
  // window would leave a centred dialog's buttons below the window's edge, out of reach of a person as of a test.
  return `<!doctype html><html><head><title>Safe App host</title></head><body style="margin:0">
<iframe id="app" title="Safe App" style="width:1200px;height:calc(100vh - 64px);margin-top:56px;border:0"></iframe>
<script>
const { appUrl, appOrigin, safeInfo, chainInfo } = ${data};
const frame = document.getElementById('app');
const VERSION = '9.1.0';
window.addEventListener('message', async (event) => {
  if (event.source !== frame.contentWindow || event.origin !== appOrigin) return;
  const { id, method, params } = event.data || {};
  if (!id || !method) return;
  const reply = (data) => frame.contentWindow.postMessage({ id, success: true, version: VERSION, data }, appOrigin);
  const fail = (error) => frame.contentWindow.postMessage({ id, success: false, version: VERSION, error }, appOrigin);
  if (method === 'getSafeInfo') return reply(safeInfo);
  if (method === 'getChainInfo') return reply(chainInfo);
  if (method === 'getEnvironmentInfo') return reply({ origin: location.origin });
  if (method === 'wallet_getPermissions') return reply([]);
  const answer = await window.__safeAppHost(method, params || {});
  return answer.ok ? reply(answer.data) : fail(answer.error);
});
frame.src = appUrl;
</script></body></html>`;
}
