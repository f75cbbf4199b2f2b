/**
 * npm run bench:service — the local service on loopback with a fresh database: a zone of 10,000 records (ten
 * signed batch creates of 1,000), then GET /dns/records and signed single creates, against the targets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../../server/config.ts';
import { startService } from '../../server/service.ts';
import { testClient, TEST_KEYS } from '../support/client.ts';
import { operations } from '#core/operations/index.ts';
import { listZone } from '../../server/dns/zone-read.ts';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY, typesForMethod } from '#core/eip712/registry.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { signingDomain } from '../../server/auth/signing-domain.ts';

import { managedSettings } from '../../server/dns/managed-settings.ts';

const ZONE = 'bench-zone.com';
const ZONE_SIZE = 10_000;
const BATCH = 1_000;
const LIST_REQUESTS = 100;
const CREATES = 200;
const TARGETS = { listP99Ms: 150, createP50Ms: 20 };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (n: number) => `${n.toFixed(1)} ms`;

function summary(samples: number[], wallMs: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: samples.length, rps: (samples.length / wallMs) * 1000, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
}

const dir = await mkdtemp(join(tmpdir(), 'namefi-bench-'));
const service = await startService(
  loadConfig({
    PORT: '0',
    DATA_DIR: dir,
    LOG_REQUESTS: 'false',
    RATE_LIMIT_PER_MINUTE: '10000000',
    BODY_LIMIT_BYTES: String(8 * 1024 * 1024),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  }),
);
const key = TEST_KEYS[0];
const account = privateKeyToAccount(key);
const client = testClient(service);
let exitCode = 0;

try {
  console.log(`Service on ${service.baseUrl} (${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'PGlite in a fresh temp dir'})`);
  console.log(machineLoad('at start'));
  await service.services.ownership.mint({ name: ZONE, to: account.address, chainId: 31337, years: 1, now: new Date() });
  const unparked = await client.signed(key, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false });
  if (unparked.status !== 200) throw new Error(`unpark: ${unparked.status} ${JSON.stringify(unparked.body)}`);

  const fillStarted = performance.now();
  for (let b = 0; b < ZONE_SIZE / BATCH; b++) {
    const records = Array.from({ length: BATCH }, (_, i) => {
      const n = b * BATCH + i;
      return { name: `host-${n}`, type: 'A', rdata: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, ttl: 300 };
    });
    const reply = await client.signed(key, 'batchCreateDnsRecords', { zoneName: ZONE, records });
    if (reply.status !== 200) throw new Error(`batch ${b}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
  const fillMs = performance.now() - fillStarted;
  console.log(`Filled ${ZONE} with ${ZONE_SIZE.toLocaleString('en-US')} records in ${(fillMs / 1000).toFixed(1)} s (${ZONE_SIZE / BATCH} signed batches, ${ms(fillMs / (ZONE_SIZE / BATCH))} each)`);

  // GET /dns/records, one request at a time (each latency is one full request with the body read).
  const listUrl = `${service.baseUrl}/dns/records?zoneName=${ZONE}`;
  const warm = await fetch(listUrl);
  const warmBody = (await warm.json()) as unknown[];
  if (warm.status !== 200 || warmBody.length < ZONE_SIZE) throw new Error(`list answered ${warm.status} with ${warmBody.length} records`);
  const listSamples: number[] = [];
  for (let i = 0; i < LIST_REQUESTS; i++) {
    const t = performance.now();
    const response = await fetch(listUrl);
    await response.arrayBuffer();
    listSamples.push(performance.now() - t);
    if (response.status !== 200) throw new Error(`list: ${response.status}`);
  }
  const list = summary(listSamples, listSamples.reduce((a, b) => a + b, 0));

  // Make room (the zone limit is 10,000), then signed single creates, one at a time; signing happens before the clock starts.
  const ids = (warmBody as Array<{ id: string; metadata?: { managed?: boolean } }>).filter((r) => !r.metadata?.managed).slice(0, CREATES).map((r) => r.id);
  const freed = await client.signed(key, 'batchDeleteDnsRecords', { zoneName: ZONE, recordsIds: ids });
  if (freed.status !== 200) throw new Error(`batch delete: ${freed.status} ${JSON.stringify(freed.body).slice(0, 300)}`);
  const h = service.services.headers;
  const createUrl = `${service.baseUrl}${operations.createDnsRecord.path}`;
  const createSamples: number[] = [];
  const createStarted = performance.now();
  let signingMs = 0;
  for (let i = 0; i < CREATES; i++) {
    const payload = { zoneName: ZONE, name: `single-${i}`, type: 'TXT', rdata: `"bench ${i}"`, ttl: 300 };
    const s = performance.now();
    const choice = chooseSigning(typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, 'createDnsRecord'), payload);
    if (choice.how !== 'signature') throw new Error('createDnsRecord cannot be signed');
    const primaryType = choice.primaryType;
    const envelope = buildEnvelope(primaryType, payload);
    const signature = await account.signTypedData(envelopeTypedData(signingDomain(service.services.config), TYPE_REGISTRY, primaryType, envelope) as never);
    signingMs += performance.now() - s;
    const t = performance.now();
    const response = await fetch(createUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [h.signer]: account.address, [h.signature]: signature, [h.eip712Type]: primaryType },
      body: JSON.stringify(envelope),
    });
    const text = await response.text();
    createSamples.push(performance.now() - t);
    if (response.status !== 200) throw new Error(`create ${i}: ${response.status} ${text.slice(0, 300)}`);
  }
  const create = summary(createSamples, performance.now() - createStarted - signingMs);

  // Where a list's time goes: the zone read (SQL in the database) against the HTTP layer's serialisation.
  const readSamples: number[] = [];
  const stringifySamples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    const records = await listZone(service.services.db, service.services.zoneCache, ZONE, managedSettings(service.services.config));
    readSamples.push(performance.now() - t);
    const u = performance.now();
    JSON.stringify(records);
    stringifySamples.push(performance.now() - u);
  }
  const read = summary(readSamples, 1);
  const stringify = summary(stringifySamples, 1);

  const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');
  console.log('');
  console.log(`GET /dns/records, ${ZONE_SIZE.toLocaleString('en-US')} records (${(JSON.stringify(warmBody).length / 1024 / 1024).toFixed(1)} MB of JSON):`);
  console.log(`  ${list.n} requests, one at a time: ${list.rps.toFixed(1)} requests/s, p50 ${ms(list.p50)}, p99 ${ms(list.p99)}, max ${ms(list.max)}  — ${verdict(list.p99 < TARGETS.listP99Ms)} (p99 < ${TARGETS.listP99Ms} ms)`);
  console.log(`  of which, in process: listZone() p50 ${ms(read.p50)} (p99 ${ms(read.p99)}), JSON.stringify of the answer p50 ${ms(stringify.p50)}`);
  console.log(`Signed single creates (POST /dns/records, EIP-712) into the ${ZONE_SIZE.toLocaleString('en-US')}-record zone, one at a time:`);
  console.log(`  ${create.n} requests: ${create.rps.toFixed(1)} requests/s, p50 ${ms(create.p50)}, p99 ${ms(create.p99)}, max ${ms(create.max)}  — ${verdict(create.p50 < TARGETS.createP50Ms)} (p50 < ${TARGETS.createP50Ms} ms)`);
  console.log(`  (client-side signing, not counted: ${ms(signingMs / CREATES)} a request)`);
  console.log(machineLoad('at end'));
} catch (error) {
  console.error('Bench failed:', error);
  exitCode = 1;
} finally {
  await service.close();
  await rm(dir, { recursive: true, force: true });
}
process.exit(exitCode);

/** Latencies on a busy machine say little about the service: the figures come with the load they ran under. */
function machineLoad(when: string): string {
  const [one] = loadavg();
  const cores = availableParallelism();
  const busy = one > cores * 0.75 ? ' — busy: other work shares the CPU, so these figures are pessimistic' : '';
  return `Machine ${when}: ${cores} cores, load average ${one.toFixed(2)}${busy}`;
}
