import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { assertPortFree, processInfo, readPidfile, removePidfile, stopOrphanAnvil, writePidfile } from './anvil-pidfile.ts';
import { checkStateFile, removeStaleTemps, setAsideStateFile, stateSaver } from './chain-state.ts';

export const LOCAL_CHAIN_ID = 31337;

export interface AnvilOptions {
  /** Keeps the chain in `<dataDir>/chain/state.json` across restarts; without it the chain lives in memory. */
  dataDir?: string;
  /** 0 (default) lets the OS pick a free port. */
  port?: number;
  chainId?: number;
  /** Seconds between state saves while running (only changed states are written); stop() always saves. */
  stateIntervalS?: number;
  /** Milliseconds to wait for anvil to answer. */
  startTimeoutMs?: number;
  /** Where start-up problems that do not stop the start are told (a damaged state file, an orphan stopped). */
  warn?: (message: string) => void;
}

export interface Anvil {
  rpcUrl: string;
  port: number;
  chainId: number;
  /** Where the state is kept, when persistent. */
  statePath: string | null;
  /** `DATA_DIR/chain/anvil.pid`, when persistent. */
  pidfile: string | null;
  pid: number;
  /** How this start found the state: loaded from the file, none yet, or damaged (set aside; a new chain). */
  stateOnStart: 'loaded' | 'new' | 'damaged';
  /** The pid of an orphan anvil of this data directory that this start stopped. */
  orphanStopped: number | null;
  /** Writes the chain's state to `statePath` now (atomically), when it changed. */
  saveState(): Promise<void>;
  /** Saves the state, then SIGTERM and waits for the exit. Safe to call twice. */
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
/** A service that exits must not leave its chain running. */
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
 * A SIGKILLed service runs no exit hook, so on Linux anvil is started through util-linux's `setpriv --pdeathsig`,
 * which asks the kernel to kill it when the service dies (PR_SET_PDEATHSIG, which Node cannot set itself) and then
 * becomes anvil (same pid). Where setpriv is missing, the pidfile lets the next start stop the orphan.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => process.platform === 'linux' && existsSync(p)) ?? null;

function spawnAnvil(args: string[]): ChildProcess {
  const [cmd, cmdArgs] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', anvilBinary(), ...args]] : [anvilBinary(), args];
  return spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
}

interface Started {
  child: ChildProcess;
  port: number;
  exited: Promise<void>;
}

/** Spawns anvil and resolves with the port once it prints its listening line; a failed start leaves nothing running. */
async function launch(args: string[], timeoutMs: number): Promise<Started> {
  const child = spawnAnvil(args);
  killOnExit(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const port = await new Promise<number>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`anvil did not start within ${timeoutMs} ms`)), timeoutMs);
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
  return { child, port, exited };
}

/**
 * Starts anvil on 127.0.0.1 (prague hardfork, so EIP-7702 works) and resolves once it answers eth_chainId.
 * Anvil prints its dev accounts' private keys on stdout: stdout is read only for the listening line and is
 * never forwarded.
 *
 * With `dataDir`: an orphan anvil recorded in `chain/anvil.pid` is stopped first; the state file is loaded when it
 * is whole, and set aside (reported through `warn`) when it is damaged, so the start goes on with a new chain that
 * the service rebuilds from its database (chain/reconcile.ts). The state is saved by the service, atomically.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const chainId = options.chainId ?? LOCAL_CHAIN_ID;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const timeoutMs = options.startTimeoutMs ?? 15000;
  const requestedPort = options.port ?? 0;
  const args = ['--host', '127.0.0.1', '--port', String(requestedPort), '--chain-id', String(chainId), '--hardfork', 'prague'];
  let statePath: string | null = null;
  let pidfile: string | null = null;
  let orphanStopped: number | null = null;
  let stateOnStart: Anvil['stateOnStart'] = 'new';
  if (options.dataDir) {
    const chainDir = resolve(options.dataDir, 'chain');
    await mkdir(chainDir, { recursive: true });
    statePath = join(chainDir, 'state.json');
    pidfile = join(chainDir, 'anvil.pid');
    orphanStopped = await stopOrphanAnvil(pidfile);
    if (orphanStopped !== null) warn(`Local chain: stopped the anvil (pid ${orphanStopped}) that a previous run of this service left running`);
    await removeStaleTemps(statePath);
    await removeStaleTemps(pidfile);
    const check = await checkStateFile(statePath);
    if (check.status === 'damaged') {
      const aside = await setAsideStateFile(statePath);
      warn(`Local chain: ${statePath} is damaged (${check.reason}); kept as ${aside}. Starting a new chain, rebuilt from the database.`);
      stateOnStart = 'damaged';
    } else if (check.status === 'ok') {
      stateOnStart = 'loaded';
    }
  }
  await assertPortFree(requestedPort);

  let started: Started;
  try {
    started = await launch(stateOnStart === 'loaded' ? [...args, '--load-state', statePath!] : args, timeoutMs);
  } catch (error) {
    if (stateOnStart !== 'loaded') throw portMessage(error as Error, requestedPort);
    // A file that parses but that anvil refuses: set it aside too, and start a new chain.
    const aside = await setAsideStateFile(statePath!);
    warn(`Local chain: anvil could not load ${statePath} (${(error as Error).message}); kept as ${aside}. Starting a new chain, rebuilt from the database.`);
    stateOnStart = 'damaged';
    await assertPortFree(requestedPort);
    started = await launch(args, timeoutMs).catch((e: Error) => {
      throw portMessage(e, requestedPort);
    });
  }
  const { child, port, exited } = started;

  const rpcUrl = `http://127.0.0.1:${port}`;
  const saver = statePath
    ? stateSaver(rpcUrl, statePath, (options.stateIntervalS ?? 2) * 1000, (error) => warn(`Local chain: could not save its state: ${error.message}`))
    : null;
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await saver?.stop();
      const alive = child.exitCode === null && child.signalCode === null;
      if (alive && saver) await saver.save().catch((error: Error) => warn(`Local chain: could not save its state at stop: ${error.message}`));
      if (alive) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (pidfile && (await readPidfile(pidfile))?.pid === child.pid) await removePidfile(pidfile);
    })();
    return stopping;
  };
  try {
    if (pidfile) {
      const info = await processInfo(child.pid!);
      await writePidfile(pidfile, {
        pid: child.pid!,
        port,
        startTime: info?.startTime ?? null,
        statePath,
        servicePid: process.pid,
        startedAt: new Date().toISOString(),
      });
    }
    await waitForChainId(rpcUrl, chainId, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    rpcUrl,
    port,
    chainId,
    statePath,
    pidfile,
    pid: child.pid!,
    stateOnStart,
    orphanStopped,
    saveState: () => saver?.save() ?? Promise.resolve(),
    stop,
  };
}

/** anvil's own words for a taken port, as the message the person can act on. */
function portMessage(error: Error, port: number): Error {
  if (port !== 0 && /address already in use|os error 98|AddrInUse/i.test(error.message)) {
    return new Error(
      `CHAIN_PORT ${port} on 127.0.0.1 is taken by another process (not an anvil this data directory's service started): ` +
        `stop that process, or set CHAIN_PORT to a free port (0 picks one) (${error.message})`,
    );
  }
  return error;
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
