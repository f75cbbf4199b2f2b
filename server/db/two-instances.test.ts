import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { startServiceProcess } from '../../test/support/service-process.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { startAnvil } from '../chain/anvil.ts';

/**
 * The contract's "More than one instance": several service instances on one PostgreSQL database. In-process
 * instances (each its own pool, so its own connections) for the races; separate processes where one must die.
 * Most cases run without a chain; the last shares one anvil between the instances (CHAIN_RPC_URL).
 */
const MIGRATIONS = readdirSync(new URL('./migrations/', import.meta.url)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).length;
const FINISHED = ['SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED'];

let postgres: PostgresServer;
let databases = 0;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

/** An empty database on the test server; answers its URL. */
async function freshDatabase(): Promise<string> {
  const name = `instances_${++databases}`;
  await inspect(postgres.url).query(`CREATE DATABASE ${name}`);
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

/**
 * Reads the database behind the services' backs, one connection per query: a client's end() waits for the server
 * to let go, so nothing of ours is still connected when the server stops.
 */
function inspect(url: string) {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
  };
}

const newWallet = () => {
  const key = generatePrivateKey();
  return { key, address: privateKeyToAccount(key).address };
};

async function fundedSession(client: TestClient, key: Hex): Promise<Record<string, string>> {
  const headers = client.withToken(await client.signIn(key));
  expect((await client.call('requestFaucet', { body: {}, headers })).status).toBe(200);
  return headers;
}

async function waitFinished(client: TestClient, headers: Record<string, string>, orderId: string, timeout = 20_000) {
  return vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId }, headers });
      if (!FINISHED.includes(reply.body?.order?.status)) throw new Error(`order ${orderId} is ${reply.body?.order?.status}`);
      return reply.body;
    },
    { timeout, interval: 50 },
  );
}

describe('instances started together on an empty database', () => {
  it('all come up, and each migration ran once', async () => {
    const ROUNDS = 5;
    const INSTANCES = 3;
    for (let round = 0; round < ROUNDS; round++) {
      const url = await freshDatabase();
      const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startTestService({ DATABASE_URL: url })));
      const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      try {
        expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'up'))).toEqual(Array(INSTANCES).fill('up'));
        for (const service of up) expect((await testClient(service).call('checkAvailability', { query: { domain: 'free.com' } })).status).toBe(200);
        const db = inspect(url);
        const versions = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(versions).toHaveLength(MIGRATIONS);
      } finally {
        await Promise.all(up.map((s) => s.destroy()));
      }
    }
    console.log(`Simultaneous start: ${ROUNDS} rounds of ${INSTANCES} instances on an empty database, all up`);
  }, 90_000);
});

describe('two instances serving one database', () => {
  let a: TestService;
  let b: TestService;
  let url: string;

  beforeAll(async () => {
    url = await freshDatabase();
    [a, b] = await Promise.all([startTestService({ DATABASE_URL: url }), startTestService({ DATABASE_URL: url })]);
  }, 60_000);
  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
  });

  /** A domain of `key`'s wallet with parking off, so records go anywhere the rules allow. */
  async function ownedZone(key: Hex, name: string) {
    await a.services.ownership.mint({ name, to: privateKeyToAccount(key).address, chainId: 31337, years: 1, now: new Date() });
    const unparked = await testClient(b).signed(key, 'toggleDomainParking', { normalizedDomainName: name, enableParking: false, overrideExistingRecords: false });
    expect(unparked.status).toBe(200);
  }
  const recordsAt = async (zoneName: string, name: string) =>
    ((await testClient(a).call('getDnsRecords', { query: { zoneName } })).body as Array<{ name: string; type: string }>).filter((r) => r.name === name);

  it('keeps a CNAME alone at its name: of 10 creates at one name, 5 to each instance, exactly one is stored', async () => {
    const { key } = newWallet();
    const zone = 'cname-race.com';
    await ownedZone(key, zone);
    const NAMES = 4;
    for (let n = 0; n < NAMES; n++) {
      const name = `www${n}`;
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) => testClient(i % 2 ? b : a).signed(key, 'createDnsRecord', { zoneName: zone, type: 'CNAME', name, rdata: `target${i}.example.net`, ttl: 300 })),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      for (const refused of replies.filter((r) => r.status !== 200)) expect(refused.body).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
      expect(await recordsAt(zone, name)).toHaveLength(1);
    }
    // The history holds the accepted changes only, one each, in the order of their serials, whichever instance wrote it.
    const history = await inspect(url).query<{ serial: string; operation: string }>('SELECT serial, operation FROM zone_history WHERE zone_name = $1 ORDER BY id', [zone]);
    expect(history.map((h) => h.operation)).toEqual(['toggleDomainParking', ...Array(NAMES).fill('createDnsRecord')]);
    const serials = history.map((h) => Number(h.serial));
    expect(serials).toEqual([...serials].sort((x, y) => x - y));
    expect(new Set(serials).size).toBe(serials.length);
    console.log(`CNAME race: ${NAMES} names × 10 creates split over two instances, 1 stored at each`);
  });

  it('lets only one of an A (to one instance) and a CNAME at the same name (to the other) through', async () => {
    const { key } = newWallet();
    const zone = 'mixed-race.com';
    await ownedZone(key, zone);
    const ROUNDS = 10;
    const winners = { A: 0, CNAME: 0 };
    for (let n = 0; n < ROUNDS; n++) {
      const name = `host${n}`;
      const sendA = () => testClient(n % 2 ? a : b).signed(key, 'createDnsRecord', { zoneName: zone, type: 'A', name, rdata: '192.0.2.1', ttl: 300 });
      const sendCname = () => testClient(n % 2 ? b : a).signed(key, 'createDnsRecord', { zoneName: zone, type: 'CNAME', name, rdata: 'elsewhere.example.net', ttl: 300 });
      // Each goes first in turn, so each gets its chance to win.
      const [address, alias] = n % 4 < 2 ? await Promise.all([sendA(), sendCname()]) : (await Promise.all([sendCname(), sendA()])).reverse();
      expect([address.status, alias.status].sort()).toEqual([200, 400]);
      const stored = await recordsAt(zone, name);
      expect(stored).toHaveLength(1);
      winners[stored[0].type as 'A' | 'CNAME']++;
    }
    console.log(`A vs CNAME race: ${ROUNDS} rounds, one record each (A won ${winners.A}, CNAME won ${winners.CNAME})`);
  });

  it('spends an envelope nonce once across instances: a replay on the other instance is 401', async () => {
    const { key } = newWallet();
    const zone = 'nonce-race.com';
    await ownedZone(key, zone);
    const timestamp = Math.floor(Date.now() / 1000);
    const send = (service: TestService, nonce: string, name: string) =>
      testClient(service).signed(key, 'createDnsRecord', { zoneName: zone, type: 'TXT', name, rdata: 'once', ttl: 300 }, { nonce, timestamp });

    const nonce = randomUUID();
    expect((await send(a, nonce, 'first')).status).toBe(200);
    const replay = await send(b, nonce, 'first');
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const ROUNDS = 5;
    for (let n = 0; n < ROUNDS; n++) {
      const both = randomUUID();
      const replies = await Promise.all([send(a, both, `both${n}`), send(b, both, `both${n}`)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 401]);
      expect(await recordsAt(zone, `both${n}`)).toHaveLength(1);
    }
    console.log(`Envelope nonces: 1 replay on the other instance (401), ${ROUNDS} envelopes sent to both at once (one 200, one 401 each)`);
  });

  it('makes a SIWE session on one instance that the other honours, and spends its nonce once', async () => {
    const { key, address } = newWallet();
    const onA = testClient(a);
    const onB = testClient(b);
    const nonce = await onA.call('getSiweNonce', { query: { signerAddress: address } });
    const prepared = await onA.call('prepareSiweMessage', { query: { signerAddress: address, nonce: nonce.body.nonce, chainId: 31337 } });
    const signature = await privateKeyToAccount(key).signMessage({ message: prepared.body.messageString });
    const verify = { body: { address, message: prepared.body.message, signature } };
    const [first, second] = await Promise.all([onB.call('verifySiwe', verify), onA.call('verifySiwe', verify)]);
    const sessions = [first, second].filter((r) => r.body?.valid === true);
    expect(sessions).toHaveLength(1);
    const token: string = sessions[0].body.token;
    for (const client of [onA, onB]) expect((await client.call('getBalance', { headers: client.withToken(token) })).status).toBe(200);
    console.log('SIWE: one message verified on both instances at once, one session, honoured by both');
  });

  it('charges each order once when checkouts of one wallet arrive at both instances at once', async () => {
    const { key, address } = newWallet();
    const headers = await fundedSession(testClient(a), key);
    // 10 orders of 11.00 against 100.00: nine fit, the tenth must be refused, whichever instance takes it.
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => testClient(i % 2 ? b : a).signed(key, 'registerDomain', { normalizedDomainName: `checkout-${i}.org`, durationInYears: 1 })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([...Array(9).fill(200), 402]);
    const orders = replies.filter((r) => r.status === 200).map((r) => r.body.id as string);
    for (const id of orders) expect((await waitFinished(testClient(b), headers, id)).order.status).toBe('SUCCEEDED');
    expect((await testClient(b).call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(10_000 - 9 * 1100);
    const db = inspect(url);
    const payments = await db.query<{ order_id: string; n: number }>(
      `SELECT p.order_id, count(*)::int AS n FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.wallet_address = $1 GROUP BY p.order_id`,
      [address.toLowerCase()],
    );
    expect(payments.map((p) => p.n)).toEqual(Array(9).fill(1));

    // And one name ordered at both instances at once: one order, one 409.
    const rival = newWallet();
    await fundedSession(testClient(b), rival.key);
    const race = await Promise.all([a, b].map((s) => testClient(s).signed(rival.key, 'registerDomain', { normalizedDomainName: 'one-name.org', durationInYears: 1 })));
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    console.log('Checkouts: 10 orders of one wallet split over two instances, 9 charged once each and 1 refused (402); one name at both: 200 and 409');
  });
});

describe('an instance killed with an order in flight', () => {
  it('leaves the order to the other instance, which finishes it once and charges it once', async () => {
    const url = await freshDatabase();
    const env = { DATABASE_URL: url, ORDER_PROCESSING_MS: '300' };
    let [victim, survivor] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    const db = inspect(url);
    // Milliseconds after the order is accepted by the victim; 'processing' waits until it is charged.
    // Sized to fit npm test's 25 minutes: the first moments, later, and during processing.
    const KILL_POINTS: Array<number | 'processing'> = [0, 1, 4, 15, 'processing', 'processing'];
    const atKill: Record<string, number> = {};
    try {
      for (const point of KILL_POINTS) {
        const { key, address } = newWallet();
        const onSurvivor = testClient(survivor);
        const headers = await fundedSession(onSurvivor, key);
        const name = `killed-${randomUUID().slice(0, 8)}.org`;
        const created = await testClient(victim).signed(key, 'registerDomain', { normalizedDomainName: name, durationInYears: 1 });
        expect(created.status).toBe(200);
        if (point === 'processing') {
          await vi.waitFor(async () => expect((await db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [created.body.id]))[0].status).not.toBe('CREATED'), {
            timeout: 5000,
            interval: 5,
          });
        } else if (point > 0) {
          await new Promise((resolve) => setTimeout(resolve, point));
        }
        await victim.kill();
        const [{ status }] = await db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [created.body.id]);
        atKill[status] = (atKill[status] ?? 0) + 1;

        const done = await waitFinished(onSurvivor, headers, created.body.id);
        expect(done.order.status).toBe('SUCCEEDED');
        expect(done.payments).toHaveLength(1);
        expect((await onSurvivor.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(10_000 - 1100);
        const owned = (await onSurvivor.call('getUserDomains', { headers })).body.map((d: { normalizedDomainName: string }) => d.normalizedDomainName);
        expect(owned).toEqual([name]);
        const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM domains WHERE owner_address = $1', [address.toLowerCase()]);
        expect(n).toBe(1);

        // The next round's victim is a new instance: roles swap, so both kinds of process start get used.
        [victim, survivor] = [survivor, await startServiceProcess(env)];
      }
    } finally {
      await Promise.all([victim.stop(), survivor.stop()]);
    }
    console.log(`SIGKILL with an order in flight: ${KILL_POINTS.length} kill points, order status when killed ${JSON.stringify(atKill)}; each finished once by the other instance, charged once`);
  }, 150_000);
});

describe('instances sharing one chain (CHAIN_RPC_URL) and one database', () => {
  it('start together on one set of contracts, and take faucet grants and checkouts at both without a nonce race or a double charge', async () => {
    const url = await freshDatabase();
    const anvil = await startAnvil();
    const env = { DATABASE_URL: url, CHAIN: 'anvil', CHAIN_RPC_URL: anvil.rpcUrl, ORDER_PROCESSING_MS: '100' };
    const [a, b] = await Promise.all([startTestService(env), startTestService(env)]);
    try {
      expect(a.chain!.deployment).toEqual(b.chain!.deployment);
      expect(await inspect(url).query('SELECT chain_id FROM chain_deployments')).toEqual([{ chain_id: 31337 }]);

      // Faucet grants at both instances at once: every one is a chain transaction from the one service account.
      const wallets = Array.from({ length: 6 }, newWallet);
      const sessions = await Promise.all(wallets.map((w, i) => fundedSession(testClient(i % 2 ? b : a), w.key)));
      for (const [i, headers] of sessions.entries()) {
        expect((await testClient(i % 2 ? a : b).call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(10_000);
      }

      // One wallet's checkouts split over both: each charged once on the chain, the one that does not fit refused.
      const [buyer] = wallets;
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) => testClient(i % 2 ? b : a).signed(buyer.key, 'registerDomain', { normalizedDomainName: `shared-chain-${i}.org`, durationInYears: 1 })),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([...Array(9).fill(200), 402]);
      for (const reply of replies.filter((r) => r.status === 200)) {
        expect((await waitFinished(testClient(a), sessions[0], reply.body.id)).order.status).toBe('SUCCEEDED');
      }
      expect(await b.chain!.credit.balanceCents(buyer.address)).toBe(10_000 - 9 * 1100);
      const owned = await a.services.ownership.domainsOf(buyer.address);
      expect(owned.map((d) => d.name).sort()).toEqual(replies.filter((r) => r.status === 200).map((r) => r.body.items[0].normalizedDomainName).sort());
      console.log('Shared chain: 2 instances on one anvil and one database, one deployment; 6 faucet grants and 10 checkouts split over both, 9 charged once on the chain');
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
      await anvil.stop();
    }
  });
});
