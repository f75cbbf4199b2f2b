import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { OperationId, OperationOutput } from '#core/operations/index.ts';
import { DEFAULT_HEADER_PREFIX, serviceHeaders } from '#core/headers.ts';
import { isTerminal } from '#core/wire/orders.ts';
import { callOperation, type CallArgs } from '../../src/lib/api/client.ts';
import { signRequest } from '../../src/lib/signing/sign-request.ts';
import { freePort } from '../../test/support/ports.ts';

/**
 * A second, real local service with the test clock on (DEV_CONTROLS=true), its own database, local chain and DNS
 * port, for the journeys that move time: the shared service every other journey uses keeps the real time (moving it
 * would lapse their sessions and the envelopes they sign themselves). The dashboard is pointed at it through the
 * service URL setting (useService in ./orders-service.ts), as a person would.
 */
export interface ClockService {
  apiUrl: string;
  dnsPort: number;
  /** POST /dev/clock: moves the service, its worker and its chain forward; answers the service's new now. */
  advance(seconds: number): Promise<Date>;
  call<K extends OperationId>(id: K, args?: CallArgs, headers?: Record<string, string>): Promise<OperationOutput<K>>;
  signIn(key: Hex): Promise<string>;
  /** A write signed by the key (EIP-712), its timestamp on the service's clock. */
  signed<K extends OperationId>(key: Hex, id: K, payload: Record<string, unknown>): Promise<OperationOutput<K>>;
  /** Registers a domain for the key from faucet credit, with records, and waits until the order finished. */
  register(key: Hex, name: string, records: Array<{ name: string; type: string; rdata: string; ttl: number }>): Promise<void>;
  /** `dig +short` at this service's DNS port. */
  dig(name: string, type: string): Promise<string[]>;
  stop(): Promise<void>;
}

const h = serviceHeaders(DEFAULT_HEADER_PREFIX);

export async function startClockService(): Promise<ClockService> {
  const [port, dnsPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'namefi-e2e-clock-'));
  const dashboardHost = new URL(process.env.E2E_DASHBOARD_URL ?? 'http://127.0.0.1:5173').host;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ORDER_PROCESSING_MS: '200',
      SIWE_DOMAIN: dashboardHost,
      LOG_REQUESTS: 'false',
      RATE_LIMIT_PER_MINUTE: '6000',
      CHAIN: 'anvil',
      CHAIN_PORT: '0',
      DNS_PORT: String(dnsPort),
      DEV_CONTROLS: 'true',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const apiUrl = `http://127.0.0.1:${port}/v-next`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the clock service exited: ${stderr}`);
    const ready = await fetch(`${apiUrl}/siwe/allowed-chains`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the clock service did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const call = <K extends OperationId>(id: K, args: CallArgs = {}, headers: Record<string, string> = {}) => callOperation(id, args, { baseUrl: apiUrl, headers });
  const clockNow = async () => Date.parse(((await (await fetch(`${apiUrl}/dev/clock`)).json()) as { now: string }).now);
  async function signIn(key: Hex): Promise<string> {
    const account = privateKeyToAccount(key);
    const nonce = await call('getSiweNonce', { query: { signerAddress: account.address } });
    if (!nonce.valid) throw new Error(`nonce refused: ${nonce.error}`);
    const prepared = await call('prepareSiweMessage', { query: { signerAddress: account.address, nonce: nonce.nonce, chainId: 31337 } });
    const signature = await account.signMessage({ message: prepared.messageString });
    const verified = await call('verifySiwe', { body: { address: account.address, message: prepared.message, signature } });
    if (!verified.valid) throw new Error(`sign-in refused: ${verified.error}`);
    return verified.token;
  }
  async function signed<K extends OperationId>(key: Hex, id: K, payload: Record<string, unknown>): Promise<OperationOutput<K>> {
    const account = privateKeyToAccount(key);
    const [domain, typesForMethod] = await Promise.all([call('getEip712Domain'), call('getEip712TypesForMethod', { query: { method: id } })]);
    const request = await signRequest({
      prefix: DEFAULT_HEADER_PREFIX,
      signer: account.address,
      domain,
      typesForMethod,
      payload,
      timestamp: Math.floor((await clockNow()) / 1000),
      sign: (typed) => account.signTypedData(typed as Parameters<typeof account.signTypedData>[0]),
    });
    return call(id, { body: request.body }, request.headers);
  }
  return {
    apiUrl,
    dnsPort,
    call,
    signIn,
    async advance(seconds) {
      const response = await fetch(`${apiUrl}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: seconds }) });
      if (!response.ok) throw new Error(`the clock did not move: ${response.status} ${await response.text()}`);
      return new Date(((await response.json()) as { now: string }).now);
    },
    signed,
    async register(key, name, records) {
      const token = await signIn(key);
      await call('requestFaucet', { body: {} }, { [h.siweToken]: token });
      const order = await signed(key, 'registerWithRecords', { normalizedDomainName: name, durationInYears: 1, records });
      for (let tries = 0; ; tries += 1) {
        const details = await call('getOrder', { params: { orderId: order.id } }, { [h.siweToken]: token });
        if (isTerminal(details.order.status)) {
          if (details.order.status !== 'SUCCEEDED') throw new Error(`the registration of ${name} ended ${details.order.status}`);
          return;
        }
        if (tries > 300) throw new Error(`the registration of ${name} did not finish`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async dig(name, type) {
      const { stdout } = await promisify(execFile)('/usr/bin/dig', ['@127.0.0.1', '-p', String(dnsPort), '+short', '+norec', name, type], { encoding: 'utf8' });
      return stdout.trim().split('\n').filter(Boolean);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
