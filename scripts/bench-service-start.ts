import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_NODE_ARGS } from './service-args.ts';

/**
 * `npm run bench:service-start`: starts `npm run service` as a person would (its own process, PGlite in DATA_DIR),
 * on the first run on this machine (no PGlite template yet), cold (a fresh DATA_DIR) and warm (the same DATA_DIR again), with CHAIN=none and CHAIN=anvil. Prints the time from
 * spawn to the first 200 and the resident memory (VmRSS of the service's node process only: anvil is a child process
 * of its own and not counted) once it has answered and sat idle, with the DNS server on as `npm start` runs it. Targets: first 200 within 5 s, idle RSS ≤ 250 MiB.
 */
const TARGETS = { startMs: 5_000, rssMiB: 250 };
const IDLE_MS = 3_000;
const PROBE = '/v-next/search/availability?domain=bench-start.com';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds the process has used (user + system): less swayed than wall time by other work on a shared machine. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) / 1024;
}

async function run(chain: 'none' | 'anvil', dataDir: string, templateDir: string) {
  const port = await freePort();
  // With its DNS server and that server's UDP threads, as `npm start` runs it.
  const dnsPort = await freePort();
  const started = performance.now();
  // node directly (not npm/npx), so the pid measured is the service's own; with the flags `npm run service` uses.
  const child = spawn(process.execPath, SERVICE_NODE_ARGS, {
    env: { ...process.env, PORT: String(port), DNS_PORT: String(dnsPort), DATA_DIR: dataDir, PGLITE_TEMPLATE_DIR: templateDir, CHAIN: chain, LOG_REQUESTS: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    let firstOkMs: number | undefined;
    while (firstOkMs === undefined) {
      if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > 180_000) throw new Error('no 200 within 180 s');
      const response = await fetch(`http://127.0.0.1:${port}${PROBE}`).catch(() => undefined);
      if (response?.status === 200) firstOkMs = performance.now() - started;
      else await sleep(25);
    }
    const atFirstOk = rssMiB(child.pid!);
    const cpu = cpuSeconds(child.pid!);
    await sleep(IDLE_MS);
    return { firstOkMs, cpu, atFirstOk, idle: rssMiB(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const dataDirs: string[] = [];
let ok = true;
// A template directory of the bench's own, so that the first start really is the first on this machine.
const templateDir = await mkdtemp(join(tmpdir(), 'namefi-template-'));
try {
  const runs = [
    { chain: 'none', states: ['first run (no template yet)', 'cold (fresh DATA_DIR)', 'warm (same DATA_DIR)'] },
    { chain: 'anvil', states: ['cold (fresh DATA_DIR)', 'warm (same DATA_DIR)'] },
  ] as const;
  for (const { chain, states } of runs) {
    for (const state of states) {
      // "first run" and "cold" each get a fresh DATA_DIR; "warm" reuses the one before it.
      const dataDir = state.startsWith('warm') ? dataDirs.at(-1)! : await mkdtemp(join(tmpdir(), 'namefi-start-'));
      if (!state.startsWith('warm')) dataDirs.push(dataDir);
      const r = await run(chain, dataDir, templateDir);
      const met = r.firstOkMs <= TARGETS.startMs && r.idle <= TARGETS.rssMiB;
      ok &&= met;
      console.log(
        `  CHAIN=${chain.padEnd(5)} ${state.padEnd(28)} first 200 after ${(r.firstOkMs / 1000).toFixed(2).padStart(5)} s (${r.cpu.toFixed(2)} s CPU)  ` +
          `RSS at first 200 ${r.atFirstOk.toFixed(0).padStart(4)} MiB, idle ${IDLE_MS / 1000} s later ${r.idle.toFixed(0).padStart(4)} MiB  ${met ? 'met' : 'NOT met'}`,
      );
    }
  }
} finally {
  for (const dir of [templateDir, ...dataDirs]) await rm(dir, { recursive: true, force: true });
}
console.log(`Load average while measuring (2 cores): ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
console.log(`Targets: first 200 within ${TARGETS.startMs / 1000} s of spawn, idle RSS ≤ ${TARGETS.rssMiB} MiB (the service's node process; anvil not counted): ${ok ? 'met' : 'NOT met'}`);
process.exitCode = ok ? 0 : 1;
