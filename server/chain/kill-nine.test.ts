import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { openDatabase } from '../db/database.ts';
import { serviceHeaders } from '../../src/core/headers.ts';
import { TEST_KEYS, testClient, type TestClient } from '../test-support/client.ts';
import { processInfo, readPidfile } from './anvil-pidfile.ts';
import { chainClients } from './client.ts';
import { creditAbi, domainRegistryAbi } from './contracts.ts';
import { orderRef, UNITS_PER_CENT } from './credit.ts';
import { readDeployment, deploymentFile } from './deploy.ts';

/**
 * The kill -9 suite: the real service (`node --import tsx server/main.ts`, CHAIN=anvil, PGlite) runs the journey
 * faucet → checkout → order processing → record write and is SIGKILLed at one point per round, then started again
 * on the same DATA_DIR. After each restart: the start succeeded, every order finished once (one charge), the chain's
 * balances and NFT holders equal the database's journal, and no anvil outlived its service.
 */

const ROOT = new URL('../../', import.meta.url).pathname;
const aliceKey = TEST_KEYS[1];
const alice = privateKeyToAccount(aliceKey).address;
const FINISHED = ['SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED'];

type Kill = { label: string; env?: string; after?: { step: Step; ms: number } };
type Step = 'faucet' | 'register' | 'processing' | 'record' | 'end';
const KILLS: Kill[] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ label: `after chain write #${n}, before its commit`, env: `chain-write:${n}` })),
  ...[1, 2, 3].map((n) => ({ label: `inside atomic file write #${n} (temp written, not renamed)`, env: `atomic-write:${n}` })),
  ...[0, 3, 10].map((ms) => ({ label: `${ms} ms into the faucet request`, after: { step: 'faucet' as const, ms } })),
  ...[0, 5, 15].map((ms) => ({ label: `${ms} ms into the checkout`, after: { step: 'register' as const, ms } })),
  ...[30, 60, 120].map((ms) => ({ label: `${ms} ms into order processing`, after: { step: 'processing' as const, ms } })),
  ...[0, 5].map((ms) => ({ label: `${ms} ms into the record write`, after: { step: 'record' as const, ms } })),
  { label: 'idle, after the journey', after: { step: 'end', ms: 0 } },
];

let dataDir: string;
let current: Running | null = null;
afterAll(async () => {
  if (current) await current.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  baseUrl: Promise<string>;
  rpcUrl: Promise<string>;
  exited: Promise<void>;
  kill(): Promise<void>;
}

function startService(crashAt?: string): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CHAIN: 'anvil',
      CHAIN_PORT: '0',
      PORT: '0',
      DATA_DIR: dataDir,
      ORDER_PROCESSING_MS: '50',
      CHAIN_STATE_INTERVAL_S: '1',
      LOG_REQUESTS: 'false',
      FAUCET_COOLDOWN_S: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      NAMEFI_CRASH_AT: crashAt ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const lines = createInterface({ input: child.stdout! });
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const line = (pattern: RegExp) =>
    new Promise<string>((found, fail) => {
      lines.on('line', (l) => {
        output = (output + l + '\n').slice(-4000);
        const m = pattern.exec(l);
        if (m) found(m[1]);
      });
      void exited.then(() => fail(new Error(`the service exited before starting:\n${output}`)));
    });
  const baseUrl = line(/^Local Namefi service on (\S+)/);
  const rpcUrl = line(/^Local chain \d+ at (\S+)/);
  baseUrl.catch(() => undefined);
  rpcUrl.catch(() => undefined);
  return {
    child,
    baseUrl,
    rpcUrl,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

const clientOf = (baseUrl: string): TestClient => testClient({ baseUrl, services: { headers: serviceHeaders('namefi') } } as never);

/** The journey, which stops at the first failed request (the service died). */
async function journey(client: TestClient, round: number, at: (step: Step) => void): Promise<void> {
  const headers = client.withToken(await client.signIn(aliceKey));
  at('faucet');
  await client.call('requestFaucet', { body: {}, headers });
  at('register');
  const ok = await client.signed(aliceKey, 'registerDomain', { normalizedDomainName: `round${round}-ok.com`, durationInYears: 1 });
  await client.signed(aliceKey, 'registerDomain', { normalizedDomainName: `fail-round${round}.com`, durationInYears: 1 });
  at('processing');
  await waitFor(async () => FINISHED.includes((await client.call('getOrder', { params: { orderId: ok.body.id }, headers })).body.order.status));
  at('record');
  await client.signed(aliceKey, 'createDnsRecord', { zoneName: `round${round}-ok.com`, name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 });
  await waitFor(async () => (await client.call('getUserOrders', { headers })).body.every((i: { status: string }) => FINISHED.includes(i.status) || i.status === 'CANCELLED'));
  at('end');
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** After a restart: orders finish once, and the chain equals the database. Ends with the service SIGKILLed. */
async function verify(round: number): Promise<void> {
  const service = (current = startService());
  const baseUrl = await service.baseUrl;
  const rpcUrl = await service.rpcUrl;
  const client = clientOf(baseUrl);
  const headers = client.withToken(await client.signIn(aliceKey));
  let orders: { order: { id: string; status: string; amountInUSDCents: number }; payments: { amountInUSDCents: number; status: string }[] }[] = [];
  await waitFor(async () => {
    const items = (await client.call('getUserOrders', { headers })).body as { orderId: string }[];
    orders = await Promise.all([...new Set(items.map((i) => i.orderId))].map(async (orderId) => (await client.call('getOrder', { params: { orderId }, headers })).body));
    return orders.every((o) => FINISHED.includes(o.order.status));
  });
  for (const { order, payments } of orders) {
    const charges = payments.filter((p) => p.amountInUSDCents > 0);
    expect(charges.length, `order ${order.id} (${order.status}) charged once or not at all`).toBeLessThanOrEqual(1);
    if (order.status === 'SUCCEEDED') expect(charges).toEqual([expect.objectContaining({ amountInUSDCents: order.amountInUSDCents, status: 'COMPLETED' })]);
  }
  // The chain as it stands, then the database behind it (PGlite takes one process: the service is stopped first).
  const clients = chainClients({ rpcUrl });
  const deployment = (await readDeployment(deploymentFile(dataDir)))!;
  const chainBalance = await clients.public.readContract({ address: deployment.credit, abi: creditAbi, functionName: 'balanceOf', args: [alice] });
  const count = await clients.public.readContract({ address: deployment.credit, abi: creditAbi, functionName: 'entryCount' });
  const entries = await clients.public.readContract({ address: deployment.credit, abi: creditAbi, functionName: 'entries', args: [0n, count] });
  const names = Array.from({ length: round + 1 }, (_, r) => [`round${r}-ok.com`, `fail-round${r}.com`]).flat();
  const holders = new Map(
    await Promise.all(
      names.map(
        async (name) =>
          [name, (await clients.public.readContract({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'domainByName', args: [name] }))[0]] as const,
      ),
    ),
  );
  const anvilPid = (await readPidfile(join(dataDir, 'chain', 'anvil.pid')))!.pid;
  await service.kill();
  await expect.poll(() => processInfo(anvilPid), { timeout: 5000, interval: 20 }).toBeNull();

  const db = await openDatabase({ dataDir: join(dataDir, 'db') });
  try {
    const [{ granted }] = await db.query<{ granted: string | number }>(`SELECT COALESCE(SUM(amount_cents), 0) AS granted FROM faucet_grants WHERE wallet_address = $1`, [
      alice.toLowerCase(),
    ]);
    const payments = await db.query<{ order_id: string; amount_cents: string | number; status: string }>(
      `SELECT p.order_id, p.amount_cents, p.status FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.wallet_address = $1`,
      [alice.toLowerCase()],
    );
    const open = await db.query(`SELECT id FROM orders WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED')`);
    expect(open).toEqual([]);
    let net = Number(granted);
    const perOrder = new Map<string, { charged: number; refunded: number }>();
    for (const p of payments) {
      const cents = Number(p.amount_cents);
      const o = perOrder.get(p.order_id) ?? { charged: 0, refunded: 0 };
      if (cents > 0) o.charged += cents;
      if (cents < 0) o.refunded -= cents;
      else if (p.status === 'REFUNDED') o.refunded += cents;
      perOrder.set(p.order_id, o);
      net -= cents > 0 ? cents : 0;
      net += cents < 0 ? -cents : p.status === 'REFUNDED' ? cents : 0;
    }
    expect(chainBalance, 'the chain balance equals grants − charges + refunds in the database').toBe(BigInt(net) * UNITS_PER_CENT);
    // Every charge on the chain is one the database recorded, for the same amount: nothing charged twice.
    const charged = entries.filter((e) => e.granted === 0n && e.account !== zeroAddress);
    expect(new Set(charged.map((e) => e.ref))).toEqual(new Set([...perOrder.keys()].map((id) => orderRef(id))));
    for (const [id, o] of perOrder) {
      const e = charged.find((c) => c.ref === orderRef(id))!;
      expect([e.charged, e.refunded]).toEqual([BigInt(o.charged) * UNITS_PER_CENT, BigInt(o.refunded) * UNITS_PER_CENT]);
    }
    const domains = new Map(
      (await db.query<{ name: string; owner_address: string }>('SELECT name, owner_address FROM domains')).map((d) => [d.name, d.owner_address]),
    );
    for (const name of names) {
      const holder = holders.get(name)!;
      expect(holder === zeroAddress ? null : holder.toLowerCase(), `${name}: chain holder equals the database`).toBe(domains.get(name) ?? null);
    }
    expect([...domains.keys()].every((n) => names.includes(n))).toBe(true);
  } finally {
    await db.close();
  }
}

it(`survives SIGKILL at ${KILLS.length} points across faucet → checkout → processing → record writes`, { timeout: 600_000 }, async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-kill9-'));
  const started = performance.now();
  let restarts = 0;
  const how = { selfKilled: 0, timed: 0, atEnd: 0 };
  for (const [round, kill] of KILLS.entries()) {
    const service = (current = startService(kill.env));
    const plan = kill.after;
    let byTest = false;
    const at = (step: Step) => {
      if (plan?.step === step)
        setTimeout(() => {
          byTest = true;
          service.child.kill('SIGKILL');
        }, plan.ms);
    };
    const run = (async () => journey(clientOf(await service.baseUrl), round, at))();
    // The journey ends when the service dies (its requests fail) or when it is done; an instrumented point the
    // journey never reached is then a kill at its end.
    await Promise.race([run.catch(() => undefined), service.exited]);
    await run.catch(() => undefined);
    const pid = (await readPidfile(join(dataDir, 'chain', 'anvil.pid')))?.pid;
    const alive = service.child.exitCode === null && service.child.signalCode === null;
    if (kill.env) how[alive ? 'atEnd' : 'selfKilled'] += 1;
    else how[byTest ? 'timed' : 'atEnd'] += 1;
    await service.kill();
    // No anvil outlives its service: the kernel ends it with the service (setpriv --pdeathsig).
    if (pid) await expect.poll(() => processInfo(pid), { timeout: 5000, interval: 20 }).toBeNull();
    await verify(round);
    restarts += 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `kill -9 suite: ${KILLS.length} kill points (${how.selfKilled} at instrumented points, ${how.timed} timed, ` +
      `${how.atEnd} at the journey's end), ${restarts} restarts verified, ${seconds} s`,
  );
  expect(restarts).toBe(KILLS.length);
});
