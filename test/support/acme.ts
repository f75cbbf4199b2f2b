/**
 * Certificates the way domain owners get them, on this machine alone: pebble (Let's Encrypt's ACME test server, from
 * Debian) validates DNS-01 challenges by asking the service's name server (`-dnsserver`), and certbot (with its
 * rfc2136 plugin) and lego put the challenge there through DNS UPDATE. Pebble's TLS certificate is made here with
 * openssl, under a CA of the test's own that the clients are told to trust.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

export const ACME_TOOLS = {
  pebble: { path: process.env.PEBBLE ?? '/usr/bin/pebble', pkg: 'pebble' },
  certbot: { path: process.env.CERTBOT ?? '/usr/bin/certbot', pkg: 'certbot python3-certbot-dns-rfc2136' },
  lego: { path: process.env.LEGO ?? '/usr/bin/lego', pkg: 'lego' },
  openssl: { path: '/usr/bin/openssl', pkg: 'openssl' },
} as const;

/** What is missing to run the ACME clients, as an install hint; null when all are there. */
export function acmeToolsMissing(): string | null {
  const missing: Array<{ path: string; pkg: string }> = Object.values(ACME_TOOLS).filter((t) => !existsSync(t.path));
  if (!existsSync('/usr/lib/python3/dist-packages/certbot_dns_rfc2136') && !process.env.CERTBOT) missing.push({ path: 'certbot_dns_rfc2136', pkg: 'python3-certbot-dns-rfc2136' });
  if (missing.length === 0) return null;
  const pkgs = [...new Set(missing.map((t) => t.pkg))].join(' ');
  return `Not found: ${missing.map((t) => t.path).join(', ')}. Install Debian's ${pkgs} (apt-get install -y ${pkgs}).`;
}

const run = promisify(execFile);

/** A CA and a certificate for 127.0.0.1 under it, in `dir`: what pebble serves TLS with and what the clients trust. */
async function makeTlsFiles(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const [ca, caKey, cert, key, csr, ext] = ['ca.pem', 'ca.key', 'cert.pem', 'key.pem', 'cert.csr', 'ext.cnf'].map((f) => join(dir, f));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run(ACME_TOOLS.openssl.path, ['req', '-x509', ...ec, '-keyout', caKey, '-out', ca, '-days', '2', '-subj', '/CN=namefi test ACME CA']);
  await run(ACME_TOOLS.openssl.path, ['req', ...ec, '-keyout', key, '-out', csr, '-subj', '/CN=127.0.0.1']);
  writeFileSync(ext, 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
  await run(ACME_TOOLS.openssl.path, ['x509', '-req', '-in', csr, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext]);
  return { ca, cert, key };
}

export interface RunningPebble {
  /** The ACME directory. */
  directory: string;
  /** The CA the clients trust pebble's TLS with. */
  caFile: string;
  dir: string;
  stop(): Promise<void>;
}

/** Pebble validating against the name server at `dnsPort`, without its waits and its random nonce refusals. */
export async function startPebble(dnsPort: number): Promise<RunningPebble> {
  const dir = mkdtempSync(join(tmpdir(), 'namefi-pebble-'));
  const tls = await makeTlsFiles(dir);
  const [port, management, http, tlsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const config = join(dir, 'pebble.json');
  const settings = { listenAddress: `127.0.0.1:${port}`, managementListenAddress: `127.0.0.1:${management}`, certificate: tls.cert, privateKey: tls.key, httpPort: http, tlsPort, ocspResponderURL: '', externalAccountBindingRequired: false };
  writeFileSync(config, JSON.stringify({ pebble: settings }));
  const env = { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' };
  const child: ChildProcess = spawn(ACME_TOOLS.pebble.path, ['-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`pebble did not start:\n${log}`)), 15_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('ACME directory available')) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => fail(new Error(`pebble stopped:\n${log}`)));
  });
  return {
    directory: `https://127.0.0.1:${port}/dir`,
    caFile: tls.ca,
    dir,
    async stop() {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 3000))]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a client to the end: its exit code and everything it printed. */
export async function runClient(path: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<{ code: number; output: string }> {
  const child = spawn(path, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (output += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number>((done) => child.once('exit', (c) => done(c ?? -1)));
  clearTimeout(timer);
  return { code, output };
}
