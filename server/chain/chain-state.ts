import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { startPollLoop } from '../support/poll-loop.ts';
import { isAtomicTemp, writeFileAtomic } from './atomic-file.ts';

/**
 * The local chain's state file, `DATA_DIR/chain/state.json`, is written by the service, never by anvil: anvil's own
 * `--state` dumping rewrites the file in place (it was seen at 0 bytes, and a half-written one stopped the next
 * start) and keeps dumping from an orphaned anvil. The service asks anvil for its state (`anvil_dumpState`) and
 * writes it with `writeFileAtomic`; anvil reads it back with `--load-state` at the next start.
 */

export type StateFileCheck = { status: 'missing' } | { status: 'ok' } | { status: 'damaged'; reason: string };

/** Whether `path` holds a state anvil can load: present, JSON, with the accounts and block anvil dumps. */
export async function checkStateFile(path: string): Promise<StateFileCheck> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'damaged', reason: `unreadable (${(error as Error).message})` };
  }
  if (text.trim() === '') return { status: 'damaged', reason: 'empty' };
  try {
    const state = JSON.parse(text) as { accounts?: unknown; block?: unknown };
    if (typeof state !== 'object' || state === null || typeof state.accounts !== 'object' || typeof state.block !== 'object') {
      return { status: 'damaged', reason: 'not an anvil state (no accounts or block)' };
    }
    return { status: 'ok' };
  } catch (error) {
    return { status: 'damaged', reason: `not valid JSON (${(error as Error).message})` };
  }
}

/** Moves a damaged state file out of the way, kept for a person to look at; returns where it went. */
export async function setAsideStateFile(path: string, now = new Date()): Promise<string> {
  const aside = `${path}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  await rename(path, aside);
  return aside;
}

/** Removes temp files of state writes that a crash interrupted (the state file itself is whole either way). */
export async function removeStaleTemps(path: string): Promise<void> {
  const dir = dirname(path);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => isAtomicTemp(n, basename(path))).map((n) => rm(join(dir, n), { force: true })));
}

/** The chain's state as anvil's `--load-state` reads it (the RPC answers it gzipped, hex encoded). */
async function dumpState(rpcUrl: string, timeoutMs = 10_000): Promise<string> {
  // A deadline cleared once answered (AbortSignal.timeout's timer would outlive the service's stop by up to timeoutMs).
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`anvil_dumpState: no answer within ${timeoutMs} ms`)), timeoutMs);
  const body = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
    signal: deadline.signal,
  })
    .then((response) => response.json() as Promise<{ result?: string; error?: { message?: string } }>)
    .finally(() => clearTimeout(timer));
  if (typeof body.result !== 'string' || !body.result.startsWith('0x')) throw new Error(`anvil_dumpState: ${body.error?.message ?? 'no state in the answer'}`);
  const bytes = Buffer.from(body.result.slice(2), 'hex');
  // Gzip's magic number; older anvils answered plain JSON.
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}

export interface StateSaver {
  /** Dumps the chain and writes the file when the state changed since the last write; serialised. */
  save(): Promise<void>;
  /** Stops the periodic saves (a save in flight finishes). */
  stop(): Promise<void>;
}

/**
 * Saves the chain's state to `path` now and then (`intervalMs`) and whenever asked. A failed periodic save is
 * reported once per kind of failure and tried again at the next tick: the database journal, not this file, is what
 * keeps acknowledged writes (chain/reconcile.ts); the file keeps what the journal does not hold (contract accounts,
 * gas balances, transfers made on the chain) and saves redeploying at start.
 */
export function stateSaver(rpcUrl: string, path: string, intervalMs: number, onError: (error: Error) => void = () => {}): StateSaver {
  let lastDigest: string | null = null;
  const saveOnce = async () => {
    const state = await dumpState(rpcUrl);
    const digest = createHash('sha256').update(state).digest('hex');
    if (digest === lastDigest) return;
    await writeFileAtomic(path, state);
    lastDigest = digest;
  };
  const loop = startPollLoop(saveOnce, { pollMs: intervalMs, firstMs: intervalMs, onError });
  return { save: loop.sync, stop: loop.stop };
}
