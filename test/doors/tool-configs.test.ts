import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certbotCredentials, certManagerIssuer, legoEnvironment } from '#core/doors/certificates.ts';

/*
 * The configurations the dashboard's "Connect a tool" panel shows, read by the tools' own parsers where Debian has
 * them: certbot's credentials loader and its rfc2136 plugin's checks (and dnspython's TSIG keyring), a POSIX shell for
 * lego's environment, PyYAML for the cert-manager manifest. ddclient.conf is run by the real ddclient
 * (server/doors/dyndns/ddclient.test.ts); certbot and lego obtaining certificates with such a key is the DNS UPDATE
 * tests' part.
 */

const PYTHON = '/usr/bin/python3';
const tsig = { keyName: 'nfk-6f1c1a52-8d8e-4a7e-9a64-0d6a1f3a2b10.', algorithm: 'hmac-sha256' as const, secret: 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=' };
const server = { host: '127.0.0.1', port: 8053 };
let dir: string;

function run(file: string, args: string[], env?: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => execFile(file, args, { timeout: 20_000, env }, (error, stdout, stderr) => (error ? fail(new Error(`${file} ${args.join(' ')}: ${stderr}${stdout}`)) : done(stdout))));
}

beforeAll(async () => {
  const missing = [PYTHON, '/usr/bin/certbot'].filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`Not found: ${missing.join(', ')}. Install Debian's certbot, python3-certbot-dns-rfc2136 and python3-yaml (apt-get install -y certbot python3-certbot-dns-rfc2136 python3-yaml).`);
  dir = await mkdtemp(join(tmpdir(), 'tool-configs-'));
});
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

describe('the tools read the configurations the panel shows', () => {
  it('certbot-dns-rfc2136 loads the credentials file, passes its own checks and makes a TSIG keyring of it', async () => {
    const file = join(dir, 'rfc2136.ini');
    await writeFile(file, certbotCredentials({ server, tsig }));
    await chmod(file, 0o600);
    const script = [
      'import json, sys',
      'import dns.tsig, dns.tsigkeyring',
      'from certbot.plugins.dns_common import CredentialsConfiguration',
      'from certbot.util import is_ipaddress',
      'from certbot_dns_rfc2136._internal.dns_rfc2136 import Authenticator',
      "c = CredentialsConfiguration(sys.argv[1], lambda v: 'dns_rfc2136_' + v)",
      "values = {k: c.conf(k) for k in ['server', 'port', 'name', 'secret', 'algorithm']}",
      "assert is_ipaddress(values['server']), 'the plugin takes an IP address only'",
      "algorithm = Authenticator.ALGORITHMS[values['algorithm']]",
      "dns.tsigkeyring.from_text({values['name']: values['secret']})",
      "print(json.dumps({**values, 'algorithm': str(algorithm)}))",
    ].join('\n');
    const read = JSON.parse(await run(PYTHON, ['-c', script, file]));
    expect(read).toEqual({ server: '127.0.0.1', port: '8053', name: tsig.keyName, secret: tsig.secret, algorithm: 'hmac-sha256.' });
  });

  it('a POSIX shell reads lego’s environment as lego is given it', async () => {
    const file = join(dir, 'lego.env');
    await writeFile(file, legoEnvironment({ server, tsig }));
    const env = await run('/bin/sh', ['-c', `set -a; . ${file}; env`], {});
    const vars = Object.fromEntries(env.trim().split('\n').filter((l) => l.startsWith('RFC2136_')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(vars).toEqual({ RFC2136_NAMESERVER: '127.0.0.1:8053', RFC2136_TSIG_ALGORITHM: 'hmac-sha256.', RFC2136_TSIG_KEY: tsig.keyName, RFC2136_TSIG_SECRET: tsig.secret, RFC2136_SEQUENCE_INTERVAL: '1', RFC2136_PROPAGATION_TIMEOUT: '60' });
  });

  it('the cert-manager manifest is two YAML documents: a Secret and an Issuer whose DNS-01 solver points at it', async () => {
    const file = join(dir, 'issuer.yaml');
    await writeFile(file, certManagerIssuer({ server, tsig, names: ['shop.com', '*.shop.com'], zoneName: 'shop.com' }));
    const docs = JSON.parse(await run(PYTHON, ['-c', 'import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))', file]));
    expect(docs).toHaveLength(2);
    const [secret, issuer] = docs;
    expect(secret).toMatchObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'namefi-shop-com-tsig' }, stringData: { 'tsig-secret': tsig.secret } });
    expect(issuer).toMatchObject({ apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'namefi-shop-com' } });
    expect(issuer.spec.acme.solvers).toEqual([
      {
        dns01: { rfc2136: { nameserver: '127.0.0.1:8053', tsigKeyName: tsig.keyName, tsigAlgorithm: 'HMACSHA256', tsigSecretSecretRef: { name: 'namefi-shop-com-tsig', key: 'tsig-secret' } } },
        selector: { dnsNames: ['shop.com', '*.shop.com'] },
      },
    ]);
  });
});
