import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const LOCAL_CHAIN_ID = 31337;

export interface AnvilOptions {
  /** Keeps the chain in `<dataDir>/chain/state.json` across restarts; without it the chain lives in memory. */
  dataDir?: string;
  /** 0 (default) lets the OS pick a free port. */
  port?: number;
  chainId?: number;
  /** Seconds between state dumps while running, so a crash loses at most this much; SIGTERM always dumps. */
  stateIntervalS?: number;
  /** Milliseconds to wait for anvil to answer. */
  startTimeoutMs?: number;
}

export interface Anvil {
  rpcUrl: string;
  port: number;
  chainId: number;
  /** Where the state is kept, when persistent. */
  statePath: string | null;
  pid: number;
  /** SIGTERM (anvil dumps its state), then waits for the exit. Safe to call twice. */
  stop(): Promise<void>;
}

// The npm package ships the binary in one optional dependency per platform; its postinstall only links it, and
// npm 11 blocks install scripts here, so resolve the platform package directly.
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'anvil-linux-amd64',
  'linux-arm64': 'anvil-linux-arm64',
  'darwin-x64': 'anvil-darwin-amd64',
  'darwin-arm64': 'anvil-darwin-arm64',
  'win32-x64': 'anvil-win32-amd64',
};

/** The anvil executable: `ANVIL_BIN` when set, else the one in `@foundry-rs/anvil-<platform>-<arch>`. */
export function anvilBinary(env: Record<string, string | undefined> = process.env): string {
  if (env.ANVIL_BIN) return env.ANVIL_BIN;
  const key = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) throw new Error(`anvil: no @foundry-rs binary package for ${key}; set ANVIL_BIN`);
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = dirname(require.resolve(`@foundry-rs/${pkg}/package.json`));
  } catch {
    throw new Error(`anvil: @foundry-rs/${pkg} is not installed (an optional dependency: anvil ships here for linux-x64 only; elsewhere set ANVIL_BIN)`);
  }
  const bin = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(bin)) throw new Error(`anvil: ${bin} is missing`);
  return bin;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
/** A service that dies must not leave its chain running; SIGTERM still lets anvil dump its state. */
function killOnExit(child: ChildProcess) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of running) c.kill('SIGTERM');
  });
}

/**
 * Starts anvil on 127.0.0.1 (prague hardfork, so EIP-7702 works) and resolves once it answers eth_chainId.
 * Anvil prints its dev accounts' private keys on stdout: stdout is read only for the listening line and is
 * never forwarded.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const chainId = options.chainId ?? LOCAL_CHAIN_ID;
  const args = ['--host', '127.0.0.1', '--port', String(options.port ?? 0), '--chain-id', String(chainId), '--hardfork', 'prague'];
  let statePath: string | null = null;
  if (options.dataDir) {
    const chainDir = resolve(options.dataDir, 'chain');
    await mkdir(chainDir, { recursive: true });
    statePath = join(chainDir, 'state.json');
    args.push('--state', statePath, '--state-interval', String(options.stateIntervalS ?? 2));
  }
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });

  const port = await new Promise<number>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`anvil did not start within ${options.startTimeoutMs ?? 15000} ms`)), options.startTimeoutMs ?? 15000);
    const lines = createInterface({ input: child.stdout! });
    let found = false;
    lines.on('line', (line) => {
      const match = !found && /Listening on [\d.]+:(\d+)/.exec(line);
      if (match) {
        found = true;
        clearTimeout(timer);
        ready(Number(match[1]));
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`anvil exited (${code}) before listening: ${stderr.trim() || 'no message'}`));
    });
  }).catch(async (error: Error) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });

  const rpcUrl = `http://127.0.0.1:${port}`;
  await waitForChainId(rpcUrl, chainId, options.startTimeoutMs ?? 15000);

  let stopping: Promise<void> | null = null;
  return {
    rpcUrl,
    port,
    chainId,
    statePath,
    pid: child.pid!,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

async function waitForChainId(rpcUrl: string, chainId: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result && Number(body.result) === chainId) return;
      if (body.result) throw new Error(`anvil answered chain id ${Number(body.result)}, expected ${chainId}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('anvil answered')) throw error;
      if (Date.now() > deadline) throw new Error(`anvil at ${rpcUrl} did not answer eth_chainId`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
