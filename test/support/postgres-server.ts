import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

/**
 * A throwaway PostgreSQL server for the DATABASE_URL path: its own cluster in a temp dir, on a free port, gone
 * after the test. Binaries: PG_BIN, else Debian's newest /usr/lib/postgresql/<version>/bin. PostgreSQL refuses
 * to run as root, so as root the cluster belongs to the `postgres` user the Debian package creates.
 */
export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}

export const NO_POSTGRES_MESSAGE =
  'No PostgreSQL binaries found for the DATABASE_URL tests. Install Debian\u2019s server (apt-get install -y postgresql) or set PG_BIN to a directory with initdb and postgres.';

export function findPostgresBin(): string | null {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : debianVersions().map((v) => `/usr/lib/postgresql/${v}/bin`);
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) ?? null;
}

function debianVersions(): string[] {
  if (!existsSync('/usr/lib/postgresql')) return [];
  return readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
}

/**
 * `keptDir`: the cluster lives there instead, made on the first start and kept after `stop` (a benchmark's seeded
 * data, reused by its next run).
 */
export async function startPostgres(keptDir?: string): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(NO_POSTGRES_MESSAGE);
  if (keptDir) mkdirSync(keptDir, { recursive: true });
  const dir = keptDir ?? mkdtempSync(join(tmpdir(), 'namefi-pg-'));
  const asRoot = process.getuid?.() === 0;
  // setpriv execs the command itself (runuser would sit in between and keep signals from reaching postgres).
  const run = (command: string, args: string[]) =>
    (asRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]] : [command, args]) as [string, string[]];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'PG_VERSION'))) execFileSync(...run(join(bin, 'initdb'), ['-D', data, '-U', 'namefi', '--auth=trust', '--encoding=UTF8', '--no-sync']), { stdio: 'pipe' });
  const port = await freePort();
  const [command, args] = run(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off']);
  const server: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr?.on('data', (chunk) => (log += chunk));
  const url = `postgres://namefi@127.0.0.1:${port}/postgres`;
  await waitUntilReady(url, server, () => log);
  return {
    url,
    async stop() {
      await new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once('exit', () => resolve());
        server.kill('SIGINT'); // fast shutdown: ends open connections
      });
      if (!keptDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitUntilReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited at start-up:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections: ${(error as Error).message}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
