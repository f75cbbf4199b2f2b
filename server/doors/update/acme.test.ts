/**
 * Certificates through the DNS UPDATE door, as owners get them: certbot (with certbot-dns-rfc2136) and lego each
 * obtain one from pebble, which validates the DNS-01 challenge against the service's name server, using a key that
 * may only write TXT at the challenge's name. The challenge record is gone afterwards.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACME_TOOLS, acmeToolsMissing, runClient, startPebble, type RunningPebble } from '../../../test/support/acme.ts';
import { dig } from '../../../test/support/bind.ts';
import { TEST_KEYS, testClient, type TestClient } from '../../../test/support/client.ts';
import { tsigKey, unparkedZone, type TsigForm } from '../../../test/support/dns-update.ts';
import { startTestService, type TestService } from '../../../test/support/test-service.ts';

const missing = acmeToolsMissing();
if (missing) throw new Error(missing);

const [OWNER] = TEST_KEYS;
let service: TestService;
let client: TestClient;
let token: string;
let pebble: RunningPebble;
let dir: string;
let port: number;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0', DNS_UDP_THREADS: '1' });
  client = testClient(service);
  token = await client.signIn(OWNER);
  port = service.dns!.port;
  pebble = await startPebble(port);
  dir = mkdtempSync(join(tmpdir(), 'namefi-acme-'));
});
afterAll(async () => {
  await pebble?.stop();
  rmSync(dir, { recursive: true, force: true });
  await service?.destroy();
});

/** A zone and a key that may write TXT at the challenge's name (`_acme-challenge`, or `_acme-challenge.<name>`) only. */
async function challengeKey(zone: string, name: string): Promise<TsigForm> {
  await unparkedZone(service, client, OWNER, zone);
  return (await tsigKey(client, token, { zones: [zone], names: [name === '@' ? '_acme-challenge' : `_acme-challenge.${name}`], types: ['TXT'] })).tsig;
}

async function certbot(domain: string, key: TsigForm) {
  const credentials = join(dir, 'certbot.ini');
  const lines = [`dns_rfc2136_server = 127.0.0.1`, `dns_rfc2136_port = ${port}`, `dns_rfc2136_name = ${key.keyName}`, `dns_rfc2136_secret = ${key.secret}`, 'dns_rfc2136_algorithm = HMAC-SHA256'];
  writeFileSync(credentials, `${lines.join('\n')}\n`, { mode: 0o600 });
  const base = join(dir, 'certbot');
  const args = ['certonly', '--non-interactive', '--agree-tos', '--register-unsafely-without-email', '--server', pebble.directory, '--config-dir', `${base}/config`, '--work-dir', `${base}/work`, '--logs-dir', `${base}/logs`];
  const result = await runClient(ACME_TOOLS.certbot.path, [...args, '--key-type', 'ecdsa', '--authenticator', 'dns-rfc2136', '--dns-rfc2136-credentials', credentials, '--dns-rfc2136-propagation-seconds', '1', '-d', domain], { REQUESTS_CA_BUNDLE: pebble.caFile });
  return { ...result, certificate: join(base, 'config', 'live', domain, 'fullchain.pem') };
}

async function lego(domain: string, key: TsigForm) {
  const path = join(dir, 'lego');
  const env = { RFC2136_NAMESERVER: `127.0.0.1:${port}`, RFC2136_TSIG_KEY: key.keyName, RFC2136_TSIG_SECRET: key.secret, RFC2136_TSIG_ALGORITHM: 'hmac-sha256.', RFC2136_PROPAGATION_TIMEOUT: '20', RFC2136_POLLING_INTERVAL: '1', LEGO_CA_CERTIFICATES: pebble.caFile };
  const args = ['--server', pebble.directory, '--accept-tos', '--email', `owner@${domain}`, '--key-type', 'ec256', '--dns', 'rfc2136', '--dns.resolvers', `127.0.0.1:${port}`, '--dns.disable-cp', '--domains', domain, '--path', path, 'run'];
  const result = await runClient(ACME_TOOLS.lego.path, args, env);
  return { ...result, certificate: join(path, 'certificates', `${domain}.crt`) };
}

const challenge = async (name: string) => (await dig(port, ['+short', `_acme-challenge.${name}`, 'TXT'])).trim();

it('certbot and lego each obtain a certificate from pebble through DNS UPDATE with a key limited to the challenge TXT, which is gone afterwards', async () => {
  const [certbotKey, legoKey] = await Promise.all([challengeKey('certbot-door.com', '@'), challengeKey('lego-door.com', 'www')]);
  const [byCertbot, byLego] = await Promise.all([certbot('certbot-door.com', certbotKey), lego('www.lego-door.com', legoKey)]);
  expect(byCertbot.code, byCertbot.output).toBe(0);
  expect(existsSync(byCertbot.certificate), byCertbot.output).toBe(true);
  expect(byLego.code, byLego.output).toBe(0);
  expect(existsSync(byLego.certificate), byLego.output).toBe(true);
  // Certificates for those names, issued by pebble's CA (not self-made).
  for (const [file, name] of [[byCertbot.certificate, 'certbot-door.com'], [byLego.certificate, 'www.lego-door.com']]) {
    const cert = new X509Certificate(readFileSync(file));
    expect(cert.subjectAltName).toContain(`DNS:${name}`);
    expect(cert.issuer).toMatch(/Pebble/i);
  }
  expect(await challenge('certbot-door.com')).toBe('');
  expect(await challenge('www.lego-door.com')).toBe('');
  // Each set the challenge and took it away: two entries of the door's, by its key, in each zone's history.
  for (const zone of ['certbot-door.com', 'lego-door.com']) {
    const entries = (await client.call('getZoneHistory', { query: { zoneName: zone }, headers: client.withToken(token) })).body.entries as Array<{ operation: string; actor: { client?: string } }>;
    expect(entries.filter((e) => e.operation === 'dnsUpdate' && e.actor.client === 'rfc2136').length, zone).toBeGreaterThanOrEqual(2);
  }
}, 90_000);
