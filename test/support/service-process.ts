import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceHeaders } from '#core/headers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The service as its own process (`node --import tsx server/main.ts`), for what needs a real process: SIGKILL. */
export interface ServiceProcess {
  baseUrl: string;
  /** What testClient needs of a service. */
  services: { headers: ReturnType<typeof serviceHeaders> };
  /** SIGKILL: no shutdown, no cleanup; answers once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the orderly stop, then its temp dir goes. */
  stop(): Promise<void>;
}

export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'namefi-proc-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    // A high rate limit, as in startTestService: every test request comes from 127.0.0.1.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', DATA_DIR: dataDir, LOG_REQUESTS: 'false', CHAIN: 'none', RATE_LIMIT_PER_MINUTE: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = await new Promise<string>((ready, fail) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /service on (http:\/\/\S+\/v-next)/.exec(output);
      if (match) ready(match[1]);
    });
    child.once('exit', (code, signal) => fail(new Error(`the service exited at start-up (${code ?? signal}):\n${output}`)));
  });
  const exited = (p: ChildProcess) => new Promise<void>((done) => (p.exitCode !== null || p.signalCode !== null ? done() : p.once('exit', () => done())));
  return {
    baseUrl,
    services: { headers: serviceHeaders('namefi') },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
      await rm(dataDir, { recursive: true, force: true });
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
