import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAtomicTemp, writeFileAtomic } from './atomic-file.ts';
import { removeStaleTemps } from './chain-state.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'namefi-atomic-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temp file', async () => {
    const path = join(dir, 'state.json');
    await writeFileAtomic(path, 'first');
    await writeFileAtomic(path, 'second, longer');
    expect(await readFile(path, 'utf8')).toBe('second, longer');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('never shows a reader a partial file while 50 writes of 1 MB race with reads', async () => {
    const path = join(dir, 'big.json');
    const versions = Array.from({ length: 50 }, (_, i) => String(i % 10).repeat(1 << 20));
    await writeFileAtomic(path, versions[0]);
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const text = await readFile(path, 'utf8');
        expect(text.length).toBe(1 << 20);
        expect(text).toBe(text[0].repeat(1 << 20));
        reads += 1;
      }
    })();
    for (const v of versions) await writeFileAtomic(path, v);
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
  });

  it('keeps the old file when the process dies between the temp write and the rename (SIGKILL)', async () => {
    const path = join(dir, 'crash.json');
    await writeFile(path, 'old and whole');
    const script = `import { writeFileAtomic } from ${JSON.stringify(new URL('./atomic-file.ts', import.meta.url).href)};
await writeFileAtomic(${JSON.stringify(path)}, 'new');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, NAMEFI_CRASH_AT: 'atomic-write:1' },
      stdio: 'ignore',
    });
    const signal = await new Promise((done) => child.once('exit', (_code, s) => done(s)));
    expect(signal).toBe('SIGKILL');
    expect(await readFile(path, 'utf8')).toBe('old and whole');
    const temps = (await readdir(dir)).filter((n) => isAtomicTemp(n, 'crash.json'));
    expect(temps).toHaveLength(1);
    expect(await readFile(join(dir, temps[0]), 'utf8')).toBe('new');
    await removeStaleTemps(path);
    expect((await readdir(dir)).filter((n) => isAtomicTemp(n, 'crash.json'))).toEqual([]);
  }, 30_000);
});
