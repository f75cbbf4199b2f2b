import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CRASH_MARKER } from '../../server/chain/crash-points.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One life of the service in the kill -9 suite: its process, where it serves, and the crash points it died at. */
export interface Running {
  child: ChildProcess;
  baseUrl: Promise<string>;
  rpcUrl: Promise<string>;
  /** Resolves once the process is gone and its stdout read to the end (so every marker is in `crashPoints`). */
  exited: Promise<void>;
  /** The name server's port, when the service was started with DNS_PORT. */
  dnsPort: Promise<number>;
  /** The crash points the service printed as it reached them (`chain-write:3`): at most one, the one it died at. */
  crashPoints: string[];
  /** When the process was seen gone (Date.now()), null while it lives. */
  exitedAt(): number | null;
  /** Whether it died of SIGKILL (its own at a crash point, or the suite's). */
  killed(): boolean;
  alive(): boolean;
  kill(): Promise<void>;
}

/** Starts `node --import tsx server/main.ts` on `dataDir` with CHAIN=anvil (unless `env` says otherwise); `crashAt` is NAMEFI_CRASH_AT. */
export function startService(dataDir: string, crashAt?: string, env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CHAIN: 'anvil',
      CHAIN_PORT: '0',
      PORT: '0',
      DATA_DIR: dataDir,
      ORDER_PROCESSING_MS: '50',
      CHAIN_STATE_INTERVAL_S: '1',
      LOG_REQUESTS: 'false',
      FAUCET_COOLDOWN_S: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      NAMEFI_CRASH_AT: crashAt ?? '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const crashPoints: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const stdoutRead = new Promise<void>((done) => lines.once('close', () => done()));
  let exitedAt: number | null = null;
  const gone = new Promise<void>((done) =>
    child.once('exit', () => {
      exitedAt = Date.now();
      done();
    }),
  );
  const exited = gone.then(() => stdoutRead);
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const waiting: { pattern: RegExp; found: (value: string) => void }[] = [];
  lines.on('line', (l) => {
    output = (output + l + '\n').slice(-4000);
    if (l.startsWith(CRASH_MARKER)) crashPoints.push(l.slice(CRASH_MARKER.length).trim());
    for (const w of waiting) {
      const m = w.pattern.exec(l);
      if (m) w.found(m[1]);
    }
  });
  const line = (pattern: RegExp) => {
    const value = new Promise<string>((found, fail) => {
      waiting.push({ pattern, found });
      void exited.then(() => fail(new Error(`the service exited before starting:\n${output}`)));
    });
    value.catch(() => undefined);
    return value;
  };
  const dnsPort = line(/^DNS: authoritative answers on \S+ port (\d+)/).then(Number);
  dnsPort.catch(() => undefined);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    baseUrl: line(/^Local Namefi service on (\S+)/),
    rpcUrl: line(/^Local chain \d+ at (\S+)/),
    dnsPort,
    exited,
    crashPoints,
    exitedAt: () => exitedAt,
    killed: () => child.signalCode === 'SIGKILL',
    alive,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
}
