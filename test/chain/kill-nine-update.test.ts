import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generatePrivateKey } from 'viem/accounts';
import { rcodeOf, sendUdp, signed, updateMessage, type TsigForm } from '../support/dns-update.ts';
import { clientOf, expectStatus, waitFor } from './kill-nine-journey.ts';
import { startService, type Running } from './kill-nine-process.ts';

/**
 * The kill -9 point of DNS UPDATE (`dns-update-answered`): the real service (no chain, PGlite) is SIGKILLed as its
 * third NOERROR to an UPDATE leaves, then started again on the same DATA_DIR. Every update answered NOERROR is
 * there after the restart: a NOERROR is durable.
 */
let dataDir: string;
let current: Running | null = null;
afterAll(async () => {
  if (current) await current.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const ENV = { CHAIN: 'none', DNS_PORT: '0', DNS_UDP_THREADS: '1' };
const txt = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);

it('survives SIGKILL as an UPDATE’s NOERROR leaves: every update answered NOERROR is there after the restart', { timeout: 120_000 }, async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-kill9-update-'));
  const key = generatePrivateKey();
  const zone = 'killed-update.com';
  const first = (current = startService(dataDir, 'dns-update-answered:3', ENV));
  let client = clientOf(await first.baseUrl);
  const headers = client.withToken(await client.signIn(key));
  expectStatus(await client.call('requestFaucet', { body: {}, headers }), '2xx', 'requestFaucet');
  const order = expectStatus(await client.signed(key, 'registerDomain', { normalizedDomainName: zone, durationInYears: 1 }), 200, 'registerDomain').body.id;
  await waitFor(async () => expectStatus(await client.call('getOrder', { params: { orderId: order }, headers }), 200, 'getOrder').body.order.status === 'SUCCEEDED');
  expectStatus(await client.signed(key, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false }), 200, 'toggleDomainParking');
  const scope = { zones: [zone], names: [], types: [], access: 'write', expiresAt: null, cidrs: [] };
  const tsig = expectStatus(await client.call('createApiKey', { body: { label: 'kill', scope, tsig: true }, headers }), 200, 'createApiKey').body.tsig as TsigForm;

  const port = await first.dnsPort;
  const answered: string[] = [];
  for (let n = 1; n <= 5; n += 1) {
    const name = `n${n}`;
    const message = updateMessage(zone, [], [{ name: `${name}.${zone}`, type: 16, klass: 1, ttl: 60, data: txt(`update ${n}`) }], n);
    const answer = await sendUdp(port, signed(message, tsig), 2000).catch(() => null);
    if (!answer) break;
    expect(rcodeOf(answer)).toBe(0);
    answered.push(name);
  }
  await first.exited;
  expect(first.crashPoints).toEqual(['dns-update-answered:3']);
  // The third NOERROR left before the kill (the next may have too: the kill follows its send within the turn).
  expect(answered.slice(0, 3)).toEqual(['n1', 'n2', 'n3']);

  const second = (current = startService(dataDir, undefined, ENV));
  client = clientOf(await second.baseUrl);
  const records = expectStatus(await client.call('getDnsRecords', { query: { zoneName: zone } }), 200, 'getDnsRecords').body as Array<{ name: string; type: string; rdata: string }>;
  for (const [i, name] of answered.entries()) expect(records).toContainEqual(expect.objectContaining({ name, type: 'TXT', rdata: `"update ${i + 1}"` }));
  await second.kill();
});
