import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../test-support/client.ts';
import { startTestService, type TestService } from '../test-support/test-service.ts';

const [OWNER_KEY] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
});
afterAll(() => service.destroy());

async function domain() {
  const name = `sig${++count}.com`;
  await service.services.ownership.mint({ name, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  return name;
}
const toggle = (name: string, enabled: boolean) => client.signed(OWNER_KEY, 'toggleDnssec', { normalizedDomainName: name, enabled });

describe('the domains list says which zones are signed', () => {
  it('isDnssecEnabled follows the switch, per domain', async () => {
    const [signed, plain] = [await domain(), await domain()];
    expect((await toggle(signed, true)).status).toBe(200);
    const token = await client.signIn(OWNER_KEY);
    const listed = async () => {
      const body = (await client.call('getUserDomains', { headers: client.withToken(token) })).body as Array<{ normalizedDomainName: string; dnsStatus: { isDnssecEnabled?: boolean } }>;
      return Object.fromEntries(body.filter((d) => d.normalizedDomainName === signed || d.normalizedDomainName === plain).map((d) => [d.normalizedDomainName, d.dnsStatus.isDnssecEnabled]));
    };
    expect(await listed()).toEqual({ [signed]: true, [plain]: false });
    expect((await toggle(signed, false)).status).toBe(200);
    expect(await listed()).toEqual({ [signed]: false, [plain]: false });
  });
});
