import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { TEST_KEYS, testClient } from '../../test/support/client.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ SIWE_TOKEN_TTL_S: '1' });
});
afterAll(() => service.destroy());

it('a session token stops working after SIWE_TOKEN_TTL_S', async () => {
  const client = testClient(service);
  const token = await client.signIn(TEST_KEYS[0]);
  const signedInAt = Date.now();
  expect((await client.call('listApiKeys', { headers: client.withToken(token) })).status).toBe(200);
  // Wait just past the one-second lifetime.
  await new Promise((done) => setTimeout(done, Math.max(0, signedInAt + 1100 - Date.now())));
  const expired = await client.call('listApiKeys', { headers: client.withToken(token) });
  expect(expired.status).toBe(401);
  expect(expired.body.message).toMatch(/SIWE session has expired/);
});
