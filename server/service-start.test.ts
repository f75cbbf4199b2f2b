import { createHook } from 'node:async_hooks';
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startService } from './service.ts';
import { freePort } from '../test/support/ports.ts';
import { findPostgresBin, NO_POSTGRES_MESSAGE, startPostgres, type PostgresServer } from '../test/support/postgres-server.ts';

/*
 * startService with each thing it starts failing in turn: whatever it had started before the failure is stopped, so
 * the caller finds no port still listening, no timer (an unref'd one included) and no child process left. The same
 * holds after a full start and close(). Timers and handles are followed from their creation (async_hooks), kept only
 * when made by the service's code; ports are checked by binding them again, children through /proc.
 */

const SERVER_DIR = fileURLToPath(new URL('./', import.meta.url));
const TRACKED = new Set(['Timeout', 'TCPSERVERWRAP', 'TCPWRAP', 'UDPWRAP', 'PROCESSWRAP', 'PIPEWRAP', 'SIGNALWRAP', 'FSEVENTWRAP']);

/** Every timer and handle the service's code creates from now on and has not closed, named by the line that made it. */
function followResources() {
  const live = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (!TRACKED.has(type)) return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 80;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      const frame = stack.split('\n').find((line) => line.includes(SERVER_DIR) && !line.includes('.test.ts'));
      if (frame) live.set(id, `${type} made at ${frame.trim().replace(SERVER_DIR, 'server/')}`);
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  return { left: () => [...live.values()].sort(), stop: () => void hook.disable() };
}

/** The handles that keep this process alive, by kind (Node's own count), for the kinds a service opens. */
function openHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (['TCPServerWrap', 'TCPSocketWrap', 'UDPWrap', 'ProcessWrap', 'PipeWrap'].includes(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** This process's live child processes, from /proc. */
function children(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(ppid) === process.pid && state !== 'Z' ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

/** Holds a TCP or UDP port on 127.0.0.1, as another program would. */
async function occupy(port: number, kind: 'tcp' | 'udp'): Promise<() => Promise<void>> {
  if (kind === 'udp') {
    const socket = createSocket('udp4');
    await new Promise<void>((done, fail) => {
      socket.once('error', fail);
      socket.bind(port, '127.0.0.1', () => done());
    });
    return () => new Promise<void>((done) => socket.close(() => done()));
  }
  const server = createServer();
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });
  return () => new Promise<void>((done) => server.close(() => done()));
}

/** Whether a port can be taken again, TCP and UDP. */
async function bindable(port: number): Promise<boolean> {
  try {
    await (await occupy(port, 'tcp'))();
    await (await occupy(port, 'udp'))();
    return true;
  } catch {
    return false;
  }
}

interface Ports {
  http: number;
  forwarder: number;
  dns: number;
  chain: number;
}

let dataDir: string;
let postgres: PostgresServer | null = null;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-start-'));
  if (!findPostgresBin()) throw new Error(NO_POSTGRES_MESSAGE);
  postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function freePorts(): Promise<Ports> {
  return { http: await freePort(), forwarder: await freePort(), dns: await freePort(), chain: await freePort() };
}

/**
 * Starts the service with every part that holds a port, a timer or a thread on (the test clock, analytics, the
 * forwarder, the DNS server on UDP threads), `env` on top, while `block` holds what should make it fail; answers what
 * the start threw (null when it started, then closed) and what it left behind.
 */
async function startWith(ports: Ports, env: Record<string, string>, block: (ports: Ports) => Promise<Array<() => Promise<void>>>) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(ports.http),
    FORWARD_PORT: String(ports.forwarder),
    DNS_PORT: String(ports.dns),
    DNS_UDP_THREADS: '1',
    DEV_CONTROLS: 'true',
    ANALYTICS_ENABLED: 'true',
    ANALYTICS_FLUSH_MS: '100',
    ALIAS_REFRESH_MS: '50',
    LOG_REQUESTS: 'false',
    SIWE_DOMAIN: 'localhost:5173',
    ...env,
  });
  const blockers = await block(ports);
  const childrenBefore = children();
  const handlesBefore = openHandles();
  const resources = followResources();
  let thrown: Error | null = null;
  try {
    const running = await startService(config);
    await running.close();
  } catch (error) {
    thrown = error as Error;
  }
  // Destroy hooks run after the tick that closed a handle or cleared a timer, a socket's once its peer has closed it
  // too (a pool's ended connection, say): what is still open after two seconds was left open.
  const added = () => Object.entries(openHandles()).filter(([kind, n]) => n > (handlesBefore[kind] ?? 0));
  for (const until = Date.now() + 2000; (resources.left().length > 0 || added().length > 0) && Date.now() < until; ) {
    await new Promise((settle) => setTimeout(settle, 20));
  }
  const left = resources.left();
  resources.stop();
  const handlesAdded = added();
  const newChildren = children().filter((pid) => !childrenBefore.includes(pid));
  for (const release of blockers) await release();
  const stillTaken: number[] = [];
  for (const port of [ports.http, ports.forwarder, ports.dns, ports.chain]) if (!(await bindable(port))) stillTaken.push(port);
  return { thrown, left, handlesAdded, newChildren, stillTaken };
}

const none = async () => [];
const taken = (kind: 'tcp' | 'udp', port: (p: Ports) => number) => async (p: Ports) => [await occupy(port(p), kind)];

/*
 * On PostgreSQL, where the test clock and the zones each hold a LISTEN connection of their own: a subscription left
 * open is a socket left open. (PGlite, the default database, costs seconds to load in a fresh process, and its close
 * is the same step.)
 */
const cases = [
  { part: 'the database (nothing listens at DATABASE_URL)', env: (p: Ports) => ({ DATABASE_URL: `postgres://namefi@127.0.0.1:${p.chain}/none` }), block: none, error: /ECONNREFUSED/ },
  { part: 'the local chain (CHAIN_PORT taken)', env: (p: Ports) => ({ CHAIN: 'anvil', CHAIN_PORT: String(p.chain) }), block: taken('tcp', (p) => p.chain), error: /CHAIN_PORT/ },
  { part: 'the URL forwarder (FORWARD_PORT taken)', env: () => ({}), block: taken('tcp', (p) => p.forwarder), error: /EADDRINUSE/ },
  { part: 'the HTTP server (PORT taken)', env: () => ({}), block: taken('tcp', (p) => p.http), error: /EADDRINUSE/ },
  { part: 'the DNS server (DNS_PORT taken for TCP)', env: () => ({}), block: taken('tcp', (p) => p.dns), error: /EADDRINUSE/ },
  { part: 'the UDP threads (DNS_PORT taken for UDP)', env: () => ({}), block: taken('udp', (p) => p.dns), error: /EADDRINUSE/ },
  { part: 'the main-thread UDP socket (DNS_PORT taken for UDP, DNS_UDP_THREADS=0)', env: () => ({ DNS_UDP_THREADS: '0' }), block: taken('udp', (p) => p.dns), error: /EADDRINUSE/ },
  { part: 'the DNS server, with the local chain running (anvil, a child process, is stopped)', env: (p: Ports) => ({ CHAIN: 'anvil', CHAIN_PORT: String(p.chain) }), block: taken('tcp', (p) => p.dns), error: /EADDRINUSE/ },
];

describe('startService stops what it started, whatever fails', () => {
  it.each(cases)('$part', async ({ env, block, error }) => {
    const ports = await freePorts();
    const outcome = await startWith(ports, { DATABASE_URL: postgres!.url, ...env(ports) }, block);
    expect(outcome.thrown?.message).toMatch(error);
    expect(outcome.left).toEqual([]);
    expect(outcome.handlesAdded).toEqual([]);
    expect(outcome.newChildren).toEqual([]);
    expect(outcome.stillTaken).toEqual([]);
  });

  it('and a full start, then close(), leaves nothing either', async () => {
    const ports = await freePorts();
    const outcome = await startWith(ports, { DATABASE_URL: postgres!.url, DNS_ALSO_NOTIFY: `127.0.0.1:${ports.chain}` }, none);
    expect(outcome.thrown).toBeNull();
    expect(outcome.left).toEqual([]);
    expect(outcome.handlesAdded).toEqual([]);
    expect(outcome.newChildren).toEqual([]);
    expect(outcome.stillTaken).toEqual([]);
  });
});
