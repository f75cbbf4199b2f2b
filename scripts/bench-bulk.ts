/**
 * npm run bench:bulk — the time per domain of the dashboard's bulk actions against the local service on loopback: for
 * each domain, what the run does before and while signing (read the zone and its forwarding, sign the envelope with a
 * local key, send it). A wallet adds the person's time to approve; this is the service's and the signing's share.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { RECORD_TEMPLATES } from '#core/dns/templates.ts';
import { loadConfig } from '../server/config.ts';
import { startService } from '../server/service.ts';
import { testClient, TEST_KEYS } from '../test/support/client.ts';

const DOMAINS = 20;
const dir = await mkdtemp(join(tmpdir(), 'namefi-bench-bulk-'));
const service = await startService(loadConfig({ PORT: '0', DATA_DIR: dir, LOG_REQUESTS: 'false', RATE_LIMIT_PER_MINUTE: '10000000', FORWARD_PORT: '0' }));
const key = TEST_KEYS[0];
const owner = privateKeyToAccount(key).address;
const client = testClient(service);
const microsoft = RECORD_TEMPLATES.find((t) => t.id === 'microsoft-365')!;
const names = Array.from({ length: DOMAINS }, (_, i) => `bulk-bench-${i}.com`);

const actions: Array<{ label: string; step: (domain: string) => [Parameters<typeof client.signed>[1], Record<string, unknown>] }> = [
  { label: 'Apply a template (Microsoft 365, 3 records): CreateRecordsEnvelope', step: (d) => ['batchCreateDnsRecords', { zoneName: d, records: microsoft.build({}, d) }] },
  { label: 'Forward to one URL: SetForwardingEnvelope', step: (d) => ['setForwarding', { normalizedDomainName: d, enabled: true, targetUrl: 'https://example.org/', statusCode: 301, keepPath: true }] },
  { label: 'Park: ToggleDomainParkingEnvelope', step: (d) => ['toggleDomainParking', { normalizedDomainName: d, enableParking: true, overrideExistingRecords: false }] },
  { label: 'Unpark: ToggleDomainParkingEnvelope', step: (d) => ['toggleDomainParking', { normalizedDomainName: d, enableParking: false, overrideExistingRecords: false }] },
];

try {
  for (const name of names) await service.services.ownership.mint({ name, to: owner, chainId: 31337, years: 1, now: new Date() });
  console.log(`${DOMAINS} domains, one signed request each, in sequence (PGlite in a fresh temp dir):`);
  for (const action of actions) {
    const samples: number[] = [];
    for (const domain of names) {
      const started = performance.now();
      await client.call('getDnsRecords', { query: { zoneName: domain } });
      await client.call('getForwarding', { query: { normalizedDomainName: domain } });
      const [operation, payload] = action.step(domain);
      const reply = await client.signed(key, operation, payload);
      if (reply.status !== 200) throw new Error(`${action.label} ${domain}: ${reply.status} ${JSON.stringify(reply.body)}`);
      samples.push(performance.now() - started);
    }
    const sorted = [...samples].sort((x, y) => x - y);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1);
    console.log(`  ${action.label}: p50 ${at(50)} ms, p95 ${at(95)} ms per domain (read, sign, send)`);
  }
} finally {
  await service.close();
  await rm(dir, { recursive: true, force: true });
}
