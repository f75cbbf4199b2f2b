import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ddclientConf } from '#core/doors/ddclient.ts';
import { startTestService, type TestService } from '../../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../../test/support/client.ts';

/*
 * The real ddclient (Debian's, 3.10) against DynDNS2, with the ddclient.conf the dashboard shows (the same function
 * writes it): it sets a home address, and asked again with the same address the service says nochg.
 */

const DDCLIENT = process.env.DDCLIENT ?? '/usr/bin/ddclient';
const missing = existsSync(DDCLIENT) ? null : `Not found: ${DDCLIENT}. Install Debian's ddclient (apt-get install -y ddclient).`;

const [OWNER] = TEST_KEYS;
const ZONE = 'ddclient-home.com';
const HOME = `home.${ZONE}`;
const ADDRESS = '198.51.100.44';

let service: TestService;
let client: TestClient;
let dir: string;

beforeAll(async () => {
  if (missing) throw new Error(missing);
  // With a name server (any free port): getServiceDoors names the port the tools' configurations need.
  service = await startTestService({ DNS_PORT: '0' });
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
  dir = await mkdtemp(join(tmpdir(), 'ddclient-'));
});
afterAll(async () => {
  await service?.destroy();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One run of ddclient in the foreground: what it printed. */
function runDdclient(conf: string, cache: string): Promise<string> {
  const args = ['-daemon=0', '-foreground', '-noquiet', '-verbose', '-file', conf, '-cache', cache];
  return new Promise((done, fail) => {
    execFile(DDCLIENT, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error && error.killed) fail(new Error(`ddclient did not finish:\n${stdout}${stderr}`));
      else done(`${stdout}${stderr}`);
    });
  });
}

describe('ddclient (Debian) through DynDNS2', () => {
  it('the service says where its doors open: the DNS port it answers on, and DynDNS2’s path', async () => {
    expect((await client.call('getServiceDoors')).body).toEqual({ dns: { host: '127.0.0.1', port: service.dns!.port }, dynDns: { path: '/nic/update' } });
  });

  it('sets the home address, then a second run with the same address gets nochg', async () => {
    const token = await client.signIn(OWNER);
    const made = await client.call('createApiKey', {
      body: { label: 'ddclient', scope: { zones: [ZONE], names: ['home'], types: ['A', 'AAAA'], access: 'write', expiresAt: null, cidrs: [] } },
      headers: client.withToken(token),
    });
    expect(made.status).toBe(200);
    const conf = join(dir, 'ddclient.conf');
    const cache = join(dir, 'ddclient.cache');
    // The home network's address, as a router's script would print it (ddclient runs a program by its path alone).
    const program = join(dir, 'home-address');
    await writeFile(program, `#!/bin/sh\necho ${ADDRESS}\n`);
    await chmod(program, 0o755);
    await writeFile(conf, ddclientConf({ serviceOrigin: service.origin, keyId: made.body.id, key: made.body.key, hostnames: [HOME], address: { kind: 'command', program } }));
    await chmod(conf, 0o600);

    const first = await runDdclient(conf, cache);
    expect(first, first).toMatch(new RegExp(`SUCCESS:\\s+updating ${HOME.replace(/\./g, '\\.')}: good: IP address set to ${ADDRESS.replace(/\./g, '\\.')}`));
    const records = (await client.call('getDnsRecords', { query: { zoneName: ZONE } })).body as Array<{ name: string; type: string; rdata: string }>;
    expect(records.filter((r) => r.name === 'home').map((r) => `${r.type} ${r.rdata}`)).toEqual([`A ${ADDRESS}`]);

    // Without its cache ddclient does not know it set the address already: it asks, and is told nochg.
    await rm(cache, { force: true });
    const second = await runDdclient(conf, cache);
    expect(second, second).toMatch(new RegExp(`WARNING:\\s+updating ${HOME.replace(/\./g, '\\.')}: nochg: No update required`));
    expect(second).not.toMatch(/FAILED|WARNING:(?!\s+updating)/);
    const history = await client.call('getZoneHistory', { query: { zoneName: ZONE }, headers: client.withToken(token) });
    expect(history.body.entries.filter((e: { operation: string }) => e.operation === 'dynDnsUpdate')).toHaveLength(1);
    expect(history.body.entries[0].actor).toMatchObject({ client: 'dyndns2', apiKeyId: made.body.id });
  });
});
