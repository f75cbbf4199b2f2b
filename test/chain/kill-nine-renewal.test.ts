import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { clientOf, expectStatus, waitFor } from './kill-nine-journey.ts';
import { startService, type Running } from './kill-nine-process.ts';

/**
 * The kill -9 point of a renewal (`renewal-charged`): the real service (CHAIN=anvil, PGlite) is SIGKILLed after the
 * renewal's charge committed and before its expiry moved, then started again on the same DATA_DIR. After the restart
 * the order finishes once: one charge, one payment, and the expiry moved by exactly the years paid, on the chain (the
 * quote reads the registry contract) and in the database.
 */
let dataDir: string;
let current: Running | null = null;
afterAll(async () => {
  if (current) await current.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('survives SIGKILL between a renewal’s charge and its expiry move: one charge, one expiry move', { timeout: 600_000 }, async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-kill9-renew-'));
  const key = generatePrivateKey();
  const name = 'killed-renewal.com';
  const first = (current = startService(dataDir, 'renewal-charged:1'));
  let client = clientOf(await first.baseUrl);
  let headers = client.withToken(await client.signIn(key));
  expectStatus(await client.call('requestFaucet', { body: {}, headers }), '2xx', 'requestFaucet');
  const registered = expectStatus(await client.signed(key, 'registerDomain', { normalizedDomainName: name, durationInYears: 1 }), 200, 'registerDomain').body.id;
  await waitFor(async () => expectStatus(await client.call('getOrder', { params: { orderId: registered }, headers }), 200, 'getOrder').body.order.status === 'SUCCEEDED');
  const before = expectStatus(await client.call('getRenewalQuote', { query: { normalizedDomainName: name } }), 200, 'getRenewalQuote').body.expiresAt as string;
  const balance = expectStatus(await client.call('getBalance', { headers }), 200, 'getBalance').body.totalBalanceInUsdCents as number;

  const renewal = expectStatus(await client.signed(key, 'renewDomain', { normalizedDomainName: name, durationInYears: 1 }), 200, 'renewDomain').body.id as string;
  await first.exited;
  expect(first.crashPoints).toEqual(['renewal-charged:1']);
  expect(first.killed()).toBe(true);

  const second = (current = startService(dataDir));
  client = clientOf(await second.baseUrl);
  headers = client.withToken(await client.signIn(key));
  let details: { order: { status: string }; payments: { amountInUSDCents: number; status: string }[] } | undefined;
  await waitFor(async () => {
    details = expectStatus(await client.call('getOrder', { params: { orderId: renewal }, headers }), 200, 'getOrder').body;
    return details!.order.status === 'SUCCEEDED';
  }, 60_000);
  expect(details!.payments).toEqual([expect.objectContaining({ amountInUSDCents: 1250, status: 'COMPLETED' })]);
  expect(expectStatus(await client.call('getBalance', { headers }), 200, 'getBalance').body.totalBalanceInUsdCents).toBe(balance - 1250);
  const expected = new Date(before);
  expected.setUTCFullYear(expected.getUTCFullYear() + 1);
  expect(expectStatus(await client.call('getRenewalQuote', { query: { normalizedDomainName: name } }), 200, 'getRenewalQuote').body.expiresAt).toBe(expected.toISOString());
  const owned = expectStatus(await client.call('getUserDomains', { headers }), 200, 'getUserDomains').body as { normalizedDomainName: string; expirationDate: string }[];
  expect(owned.find((d) => d.normalizedDomainName === name)?.expirationDate).toBe(expected.toISOString());
  await second.kill();
});
