import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary, startAnvil } from './anvil.ts';
import { isRecordedAnvil, processInfo, readPidfile, stopOrphanAnvil, writePidfile, type AnvilPidRecord } from './anvil-pidfile.ts';

let dataDir: string;
const strays: ChildProcess[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-pidfile-'));
});
afterAll(async () => {
  for (const c of strays) c.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** An anvil started the way an earlier service of `dir` would have, but not tied to this process: an orphan. */
async function orphanAnvil(dir: string): Promise<{ child: ChildProcess; record: AnvilPidRecord }> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', '31337'], { stdio: ['ignore', 'pipe', 'ignore'] });
  strays.push(child);
  const port = await new Promise<number>((ready) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /Listening on [\d.]+:(\d+)/.exec(line);
      if (m) ready(Number(m[1]));
    });
  });
  const info = await processInfo(child.pid!);
  const record: AnvilPidRecord = {
    pid: child.pid!,
    port,
    startTime: info!.startTime,
    statePath: join(dir, 'chain', 'state.json'),
    servicePid: 999_999,
    startedAt: new Date().toISOString(),
  };
  await mkdir(join(dir, 'chain'), { recursive: true });
  await writePidfile(join(dir, 'chain', 'anvil.pid'), record);
  return { child, record };
}

const exitOf = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((done) => child.once('exit', () => done()));

describe('anvil pidfile', () => {
  it('recognises only the recorded anvil: same start time and executable', async () => {
    const { child, record } = await orphanAnvil(await mkdtemp(join(dataDir, 'recognise-')));
    const info = await processInfo(child.pid!);
    expect(isRecordedAnvil(record, info)).toBe(true);
    expect(isRecordedAnvil({ ...record, startTime: record.startTime! + 1 }, info)).toBe(false);
    expect(isRecordedAnvil(record, await processInfo(process.pid))).toBe(false);
    expect(isRecordedAnvil({ ...record, pid: process.pid }, await processInfo(process.pid))).toBe(false);
    child.kill('SIGKILL');
    await exitOf(child);
  });

  it('a start stops the orphan anvil a SIGKILLed service left, and takes its port', async () => {
    const dir = await mkdtemp(join(dataDir, 'orphan-'));
    const { child, record } = await orphanAnvil(dir);
    const warnings: string[] = [];
    const anvil = await startAnvil({ dataDir: dir, port: record.port, warn: (m) => warnings.push(m) });
    try {
      await exitOf(child);
      expect(child.exitCode ?? child.signalCode).not.toBeNull();
      expect(anvil.orphanStopped).toBe(record.pid);
      expect(warnings).toEqual([`Local chain: stopped the anvil (pid ${record.pid}) that a previous run of this service left running`]);
      expect(anvil.port).toBe(record.port);
      const now = await readPidfile(join(dir, 'chain', 'anvil.pid'));
      expect(now).toMatchObject({ pid: anvil.pid, port: record.port, servicePid: process.pid });
    } finally {
      await anvil.stop();
    }
    expect(await readPidfile(join(dir, 'chain', 'anvil.pid'))).toBeNull();
    expect(await processInfo(anvil.pid)).toBeNull();
  }, 30_000);

  it('leaves alone a process the pidfile names that is not the recorded anvil, and drops the stale record', async () => {
    const dir = await mkdtemp(join(dataDir, 'stale-'));
    const pidfile = join(dir, 'anvil.pid');
    const me = await processInfo(process.pid);
    await writePidfile(pidfile, { pid: process.pid, port: 8545, startTime: me!.startTime, statePath: null, servicePid: 1, startedAt: '' });
    expect(await stopOrphanAnvil(pidfile)).toBeNull();
    expect(await readPidfile(pidfile)).toBeNull();
    await writeFile(pidfile, '{"pid": "garbage"');
    expect(await stopOrphanAnvil(pidfile)).toBeNull();
  });

  it('says clearly when CHAIN_PORT is taken by something else, and starts nothing', async () => {
    const server: Server = createServer();
    const port = await new Promise<number>((ready) => server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port)));
    const dir = await mkdtemp(join(dataDir, 'taken-'));
    try {
      await expect(startAnvil({ dataDir: dir, port })).rejects.toThrow(
        `CHAIN_PORT ${port} on 127.0.0.1 is taken by another process (not an anvil this data directory's service started)`,
      );
      expect(await readPidfile(join(dir, 'chain', 'anvil.pid'))).toBeNull();
    } finally {
      server.close();
    }
  });

  it('anvil dies with its service on SIGKILL (the kernel ends it through setpriv --pdeathsig)', async () => {
    const dir = await mkdtemp(join(dataDir, 'parent-'));
    const script = `import { startAnvil } from ${JSON.stringify(new URL('./anvil.ts', import.meta.url).href)};
const a = await startAnvil({ dataDir: ${JSON.stringify(dir)} }); console.log('pid ' + a.pid); setInterval(() => {}, 1000);`;
    const service = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    strays.push(service);
    const pid = await new Promise<number>((ready) =>
      createInterface({ input: service.stdout! }).on('line', (line) => {
        const m = /^pid (\d+)$/.exec(line);
        if (m) ready(Number(m[1]));
      }),
    );
    expect(await processInfo(pid)).not.toBeNull();
    service.kill('SIGKILL');
    await exitOf(service);
    await expect.poll(() => processInfo(pid), { timeout: 5000, interval: 20 }).toBeNull();
  }, 30_000);
});
