import { afterAll, beforeAll, describe, it } from 'vitest';
import { operations, type Operation, type OperationId } from '#core/operations/index.ts';
import { startTestService, type TestService } from '../support/test-service.ts';
import { FuzzRun } from './fuzz-run.ts';
import { caseArbitrary, describeCase, runCase, type World } from './operation-cases.ts';
import { describeDohCase, dohCaseArbitrary, runDohCase } from './doh-cases.ts';
import { describeDynDnsCase, dynDnsCaseArbitrary, runDynDnsCase } from './dyndns-cases.ts';
import { setUpWorld } from './world.ts';

/**
 * Issue 19 and 24, "No 5xx from any input", without a chain: every operation of the table and DNS over HTTPS, a
 * fixed number of cases each (FUZZ_SCALE scales them), the seed printed and replayed with FUZZ_SEED (fuzz-run.ts).
 * The run with the chain up is no-5xx-chain.test.ts.
 */
// Sized so npm test fits its 25 minutes as operations are added (53 of them now: 3,180 cases, 300 DoH queries and 150
// DynDNS2 requests in about a minute and a half); each is a floor the run must reach. FUZZ_SCALE=4 for a long night.
const CASES_PER_OPERATION = 60;
const DOH_CASES = 300;
const DYNDNS_CASES = 150;
const run = new FuzzRun('without a chain', 'test/fuzz/no-5xx.test.ts');

let service: TestService;
let world: World;

beforeAll(async () => {
  // Rate limiting would answer 429 long before the fuzz is through; it has its own tests.
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: '100000000' });
  world = await setUpWorld(service);
}, 120_000);

afterAll(async () => {
  console.log(run.summary());
  await service?.destroy();
});

describe('no input yields a 5xx (no chain)', () => {
  (Object.entries(operations) as Array<[OperationId, Operation]>).forEach(([id, operation], index) => {
    it(`${id}: never a 5xx; every 4xx is an error body and changes nothing`, async () => {
      await run.property(
        id,
        index,
        CASES_PER_OPERATION,
        caseArbitrary(world, id, operation),
        (c) => runCase(world, id, operation, c, { answered: (answer) => run.answered(id, answer) }),
        (c) => describeCase(id, c),
      );
    }, 600_000);
  });

  it('/dns-query: never a 5xx; every 4xx is an error body; every 200 a DNS message', async () => {
    const zones = [world.zone, world.freeName];
    await run.property('dns-query', 1000, DOH_CASES, dohCaseArbitrary(zones), (c) => runDohCase(service.origin, c, (answer) => run.answered('dns-query', answer)), describeDohCase);
  }, 600_000);

  it('/nic/update (DynDNS2): never a 5xx nor 911; every line the protocol\u2019s; nothing written without a good', async () => {
    await run.property('nic-update', 2000, DYNDNS_CASES, dynDnsCaseArbitrary(world.zone), (c) => runDynDnsCase(world, c, (answer) => run.answered('nic-update', answer)), describeDynDnsCase);
  }, 600_000);
});
