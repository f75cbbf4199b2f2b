import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';

/**
 * `DATA_DIR/chain/anvil.pid`: which anvil this data directory's service started, so that the next start can tell an
 * orphan (left by a service killed with SIGKILL on a system where anvil could not be tied to its parent) from any
 * other process. A pid alone could be reused by the system: the record also holds the process's start time
 * (field 22 of /proc/<pid>/stat), which together with the pid names one process for the machine's uptime.
 */
export interface AnvilPidRecord {
  pid: number;
  port: number;
  /** Clock ticks since boot, from /proc/<pid>/stat; null where /proc is missing. */
  startTime: number | null;
  statePath: string | null;
  /** The service process that started it. */
  servicePid: number;
  startedAt: string;
}

export async function writePidfile(path: string, record: AnvilPidRecord): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** The record, or null when there is none or it cannot be read (a damaged record names no process to stop). */
export async function readPidfile(path: string): Promise<AnvilPidRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<AnvilPidRecord>;
    if (!Number.isSafeInteger(parsed.pid) || (parsed.pid ?? 0) <= 1 || !Number.isSafeInteger(parsed.port)) return null;
    return parsed as AnvilPidRecord;
  } catch {
    return null;
  }
}

export const removePidfile = (path: string) => rm(path, { force: true });

export interface ProcessInfo {
  argv: string[];
  startTime: number;
}

/** What /proc says about `pid`, or null when it is gone (or there is no /proc). A zombie counts as gone. */
export async function processInfo(pid: number): Promise<ProcessInfo | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    return { argv, startTime: Number(fields[19]) };
  } catch {
    return null;
  }
}

/**
 * True when the recorded process still runs and is the very anvil the record describes: same start time, an
 * `anvil` executable, listening where the record says (`--port` is the recorded port, or 0 when the system picked
 * it), and loading no state but this directory's.
 */
export function isRecordedAnvil(record: AnvilPidRecord, info: ProcessInfo | null): boolean {
  if (!info || record.startTime === null || info.startTime !== record.startTime) return false;
  const [exe, ...args] = info.argv;
  if (!exe || !/^anvil(\.exe)?$/.test(basename(exe))) return false;
  const port = args[args.indexOf('--port') + 1];
  if (!args.includes('--port') || (port !== String(record.port) && port !== '0')) return false;
  const loaded = args.includes('--load-state') ? args[args.indexOf('--load-state') + 1] : null;
  return loaded === null || loaded === record.statePath;
}

/**
 * Stops the anvil a previous run of this data directory left behind (SIGTERM, then SIGKILL) and removes its record.
 * It is stopped, not reused: its chain may hold writes whose database transactions never committed, and this start
 * rebuilds the chain from the last saved state plus the database's journal anyway. A record naming a process that
 * is gone, or some other process now, is just removed. Returns the pid stopped, if any.
 */
export async function stopOrphanAnvil(pidfile: string, options: { termWaitMs?: number } = {}): Promise<number | null> {
  const record = await readPidfile(pidfile);
  if (!record) {
    await removePidfile(pidfile);
    return null;
  }
  if (!isRecordedAnvil(record, await processInfo(record.pid))) {
    await removePidfile(pidfile);
    return null;
  }
  const still = async () => isRecordedAnvil(record, await processInfo(record.pid));
  for (const [signal, waitMs] of [['SIGTERM', options.termWaitMs ?? 3000], ['SIGKILL', 5000]] as const) {
    try {
      process.kill(record.pid, signal);
    } catch {
      break; // already gone
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline && (await still())) await new Promise((r) => setTimeout(r, 20));
    if (!(await still())) break;
  }
  if (await still()) throw new Error(`anvil: could not stop the orphan anvil (pid ${record.pid}) recorded in ${pidfile}`);
  // No longer the anvil is not yet gone: a many-threaded process loses its command line when its first thread exits,
  // while the others may still hold its listening socket for a moment. Its port is the one this start wants.
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && (await bindError(record.port)) !== null) await new Promise((r) => setTimeout(r, 20));
  await removePidfile(pidfile);
  return record.pid;
}

/** Why 127.0.0.1:`port` cannot be bound right now, or null when it can (a listener is opened and closed at once). */
function bindError(port: number): Promise<NodeJS.ErrnoException | null> {
  return new Promise((answer) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => answer(error));
    server.listen(port, '127.0.0.1', () => server.close(() => answer(null)));
  });
}

/** Resolves when 127.0.0.1:`port` can be bound; otherwise a message saying who should act. */
export async function assertPortFree(port: number): Promise<void> {
  if (port === 0) return;
  const error = await bindError(port);
  if (!error) return;
  throw new Error(
    error.code === 'EADDRINUSE'
      ? `CHAIN_PORT ${port} on 127.0.0.1 is taken by another process (not an anvil this data directory's service started): ` +
          `stop that process, or set CHAIN_PORT to a free port (0 picks one), or point CHAIN_RPC_URL at that node to use it`
      : `CHAIN_PORT ${port}: cannot listen on 127.0.0.1 (${error.code ?? error.message})`,
  );
}
