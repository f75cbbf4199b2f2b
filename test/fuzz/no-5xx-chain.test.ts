import { afterAll, beforeAll, describe, it } from 'vitest';
import { operations, type Operation, type OperationId } from '#core/operations/index.ts';
import { startTestService, type TestService } from '../support/test-service.ts';
import { FuzzRun } from './fuzz-run.ts';
import { caseArbitrary, describeCase, runCase, type World } from './operation-cases.ts';
import { setUpWorld } from './world.ts';

/**
 * "No 5xx from any input" once more with the chain up (CHAIN=anvil): what answers 401/403 at once without one is
 * fuzzed here. x402 payments (PAYMENT-SIGNATURE absent, garbage, random base64, shaped like a payment with any field
 * mutated, signed by a funded payer or not) and contract-account signatures (ERC-1271 from a deployed account,
 * ERC-6492 wrappings with the attacker's factory and calldata, delegated-account headers), on every operation.
 * Sized to keep `npm test` within its budget (about 2,000 cases); FUZZ_SCALE=4 runs a long night's worth.
 */
const CASES_PER_OPERATION = 20;
/** The operations the chain changes most: x402 and the signed writes, where contract signatures are checked. */
const MORE_CASES: Partial<Record<OperationId, number>> = {
  registerDomainX402: 250,
  createDnsRecord: 100,
  updateDnsRecord: 80,
  batchCreateDnsRecords: 80,
  batchUpdateDnsRecords: 60,
  toggleDomainParking: 60,
  registerDomain: 60,
  registerWithRecords: 60,
  verifySiwe: 60,
};
const run = new FuzzRun('with the chain', 'test/fuzz/no-5xx-chain.test.ts');

let service: TestService;
let world: World;

beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil', RATE_LIMIT_PER_MINUTE: '100000000' });
  world = await setUpWorld(service);
}, 240_000);

afterAll(async () => {
  console.log(run.summary());
  await service?.destroy();
});

describe('no input yields a 5xx (chain up)', () => {
  (Object.entries(operations) as Array<[OperationId, Operation]>).forEach(([id, operation], index) => {
    it(`${id}: never a 5xx; every 4xx is an error body and changes nothing`, async () => {
      // Offsets apart from the run without a chain, so the two runs draw different cases for one seed.
      await run.property(
        id,
        2000 + index,
        MORE_CASES[id] ?? CASES_PER_OPERATION,
        caseArbitrary(world, id, operation),
        (c) => runCase(world, id, operation, c, { answered: (answer) => run.answered(id, answer) }),
        (c) => describeCase(id, c),
      );
    }, 600_000);
  });
});
