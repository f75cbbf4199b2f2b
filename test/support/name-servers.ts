/**
 * Debian's authoritative name servers started for tests and benchmarks, each unprivileged on a loopback port with
 * its own directory: BIND 9 (`named`), Knot DNS (`knotd`) and NSD. Each is given its configuration text; `start`
 * waits until it answers a SOA query for `readyZone` (or has started, without one) and fails with its log if it stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dig } from './bind.ts';

export const NAME_SERVER_BINARIES = {
  named: { path: process.env.NAMED ?? '/usr/sbin/named', pkg: 'bind9' },
  knotd: { path: process.env.KNOTD ?? '/usr/sbin/knotd', pkg: 'knot' },
  nsd: { path: process.env.NSD ?? '/usr/sbin/nsd', pkg: 'nsd' },
  dnsperf: { path: process.env.DNSPERF ?? '/usr/bin/dnsperf', pkg: 'dnsperf' },
} as const;

/** What is missing to run the name servers, as an install hint; null when all are there. */
export function nameServersMissing(which: Array<keyof typeof NAME_SERVER_BINARIES> = ['named', 'knotd', 'nsd']): string | null {
  const missing = which.filter((b) => !existsSync(NAME_SERVER_BINARIES[b].path));
  if (missing.length === 0) return null;
  return `Not found: ${missing.map((b) => NAME_SERVER_BINARIES[b].path).join(', ')}. Install Debian's ${[...new Set(missing.map((b) => NAME_SERVER_BINARIES[b].pkg))].join(' ')} (apt-get install -y ${[...new Set(missing.map((b) => NAME_SERVER_BINARIES[b].pkg))].join(' ')}).`;
}

export interface RunningNameServer {
  kind: 'named' | 'knotd' | 'nsd';
  port: number;
  dir: string;
  /** The server's process id (its resident memory is in /proc/<pid>/status). */
  pid: number;
  log(): string;
  stop(): Promise<void>;
}

async function launch(kind: RunningNameServer['kind'], args: string[], dir: string, port: number, readyZone: string | null, timeoutMs = 20_000): Promise<RunningNameServer> {
  const child: ChildProcess = spawn(NAME_SERVER_BINARIES[kind].path, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  let log = '';
  let exited = false;
  child.stdout?.on('data', (c: Buffer) => void (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => void (log += c.toString()));
  const exit = new Promise<void>((done) =>
    child.once('exit', () => {
      exited = true;
      done();
    }),
  );
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await Promise.race([exit, new Promise((done) => setTimeout(done, 5_000))]);
    if (!exited) child.kill('SIGKILL');
  };
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`${kind} stopped:\n${log}`);
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(`${kind} did not answer within ${timeoutMs} ms:\n${log}`);
    }
    const answer = readyZone ? await dig(port, ['+short', '+time=1', readyZone, 'SOA']).catch(() => '') : 'started';
    if (answer.trim()) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return { kind, port, dir, pid: child.pid as number, log: () => log, stop };
}

/**
 * BIND 9 with one worker thread; `conf` is the named.conf body after the options block. On an `address` other than
 * 127.0.0.1 it is not asked for `readyZone` (dig here asks 127.0.0.1): give null and wait for it yourself.
 */
export function startNamed(dir: string, port: number, body: string, readyZone: string | null, options = '', address = '127.0.0.1', timeoutMs?: number): Promise<RunningNameServer> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'named.conf'),
    `options { directory "${dir}"; listen-on port ${port} { ${address}; }; listen-on-v6 { none; }; recursion no; pid-file none; ${options} };\n${body}\n`,
  );
  return launch('named', ['-g', '-u', 'root', '-n', '1', '-c', join(dir, 'named.conf')], dir, port, readyZone, timeoutMs);
}

/**
 * Knot DNS with one UDP, one TCP and one background worker; `body` is the YAML after the server and database sections.
 * `timeoutMs` (20 s) bounds the wait for `readyZone`, as for BIND: many zones take longer to load.
 */
export function startKnot(dir: string, port: number, body: string, readyZone: string | null, timeoutMs?: number): Promise<RunningNameServer> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'knot.conf'),
    `server:\n    listen: 127.0.0.1@${port}\n    rundir: "${dir}"\n    udp-workers: 1\n    tcp-workers: 1\n    background-workers: 1\n` +
      `database:\n    storage: "${dir}"\nlog:\n  - target: stderr\n    any: info\n${body}\n`,
  );
  return launch('knotd', ['-c', join(dir, 'knot.conf')], dir, port, readyZone, timeoutMs);
}

/**
 * NSD with one server process, its own response-rate limiting off (on by default in Debian's build: 200/s per /24)
 * and a reload after every transfer (by default at most one a second, so a change close after another waited up to
 * 1 s); `body` is the configuration after the server section (keys, patterns, zones).
 */
export function startNsd(dir: string, port: number, body: string, readyZone: string | null): Promise<RunningNameServer> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'nsd.conf'),
    `server:\n    ip-address: 127.0.0.1\n    port: ${port}\n    do-ip6: no\n    server-count: 1\n    username: ""\n    chroot: ""\n` +
      `    zonesdir: "${dir}"\n    pidfile: "${dir}/nsd.pid"\n    database: ""\n    xfrdfile: "${dir}/xfrd.state"\n    xfrdir: "${dir}"\n` +
      `    zonelistfile: "${dir}/zone.list"\n    verbosity: 2\n    rrl-ratelimit: 0\n    xfrd-reload-timeout: 0\nremote-control:\n    control-enable: no\n${body}\n`,
  );
  return launch('nsd', ['-d', '-c', join(dir, 'nsd.conf')], dir, port, readyZone);
}
