/**
 * npm run bench:access — what an authorised grantee's write costs beyond the owner's (contract: Access): the same
 * record create, owner and grantee interleaved, measured twice: through the pipeline alone (changeZone with each
 * principal: the authorisation step's cost, no HTTP or signature) and as signed HTTP requests (what a client sees).
 * Prints medians and the grantee/owner ratio.
 */
import { performance } from 'node:perf_hooks';
import { addressOf, testClient, TEST_KEYS } from '../support/client.ts';
import { startTestService } from '../support/test-service.ts';
import { checkRecords } from '../../server/dns/zone-validate.ts';
import { changeZone } from '../../server/zones/pipeline.ts';
import { recordsCommand } from '../../server/zones/records.ts';
import type { Principal } from '../../server/services.ts';

const [OWNER, , HELPER] = TEST_KEYS;
const ROUNDS = Number(process.env.ACCESS_BENCH_ROUNDS ?? 200);
const ZONE = 'access-bench.com';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const service = await startTestService();
  const client = testClient(service);
  try {
    await service.services.ownership.mint({ name: ZONE, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
    const granted = await client.signed(OWNER, 'grantZoneAccess', { zoneName: ZONE, grantee: addressOf(HELPER), role: 'editor', names: ['www', '*.app'], types: ['A', 'TXT'], expiresAt: Math.floor(Date.now() / 1000) + 7 * 86400 });
    if (granted.status !== 200) throw new Error(JSON.stringify(granted.body));

    const owner: Principal = { wallet: addressOf(OWNER).toLowerCase(), via: 'eip712' };
    const grantee: Principal = { wallet: addressOf(HELPER).toLowerCase(), via: 'eip712' };
    let n = 0;
    const pipelineWrite = async (principal: Principal) => {
      const command = recordsCommand(checkRecords(ZONE, { creates: [{ name: 'www', type: 'TXT', rdata: `"b${++n}"`, ttl: 300 }] }, ''));
      const start = performance.now();
      await changeZone(service.services, { zoneName: ZONE, by: { principal, operation: 'createDnsRecord' }, command });
      return performance.now() - start;
    };
    const httpWrite = async (key: `0x${string}`) => {
      const start = performance.now();
      const reply = await client.signed(key, 'createDnsRecord', { zoneName: ZONE, name: 'www', type: 'TXT', rdata: `"h${++n}"`, ttl: 300 });
      const took = performance.now() - start;
      if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
      return took;
    };
    // Warm up both paths, then interleave so drift hits both alike (HTTP first: an idle keep-alive connection is closed).
    for (let i = 0; i < 20; i += 1) {
      await pipelineWrite(owner);
      await pipelineWrite(grantee);
    }
    const times = { pipelineOwner: [] as number[], pipelineGrantee: [] as number[], httpOwner: [] as number[], httpGrantee: [] as number[] };
    for (let i = 0; i < ROUNDS / 2; i += 1) {
      times.httpOwner.push(await httpWrite(OWNER));
      times.httpGrantee.push(await httpWrite(HELPER));
    }
    for (let i = 0; i < ROUNDS; i += 1) {
      times.pipelineOwner.push(await pipelineWrite(owner));
      times.pipelineGrantee.push(await pipelineWrite(grantee));
    }
    const line = (what: string, o: number[], g: number[]) =>
      `${what}: owner ${median(o).toFixed(2)} ms, grantee ${median(g).toFixed(2)} ms (median of ${o.length}); grantee/owner = ${(median(g) / median(o)).toFixed(2)}`;
    console.log(line('pipeline (changeZone)', times.pipelineOwner, times.pipelineGrantee));
    console.log(line('signed HTTP write', times.httpOwner, times.httpGrantee));
  } finally {
    await service.destroy();
  }
}

await main();
