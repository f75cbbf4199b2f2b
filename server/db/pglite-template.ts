import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A new PGlite data directory costs an initdb inside WASM: seconds, and ~750 MiB resident that a process never gives
 * back (WASM memory does not shrink). So the service never runs initdb itself: a short-lived child process makes one
 * empty cluster (the template) and exits, and each fresh DATA_DIR starts as a copy of it. The template is kept per
 * PGlite version under PGLITE_TEMPLATE_DIR (default: the system's temp directory); `npm run prepare:db` makes it ahead.
 */
const pgliteVersion = (() => {
  // The package's exports hide its package.json: find it beside the resolved entry.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const root = entry.slice(0, entry.lastIndexOf('/dist/'));
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
})();

export function templateDir(env: Record<string, string | undefined> = process.env): string {
  return join(env.PGLITE_TEMPLATE_DIR || join(tmpdir(), 'namefi-pglite-template'), `pglite-${pgliteVersion}`);
}

export async function isCluster(dir: string): Promise<boolean> {
  return stat(join(dir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/** Runs initdb in a child process (its memory goes with it); concurrent callers each build, the first rename wins. */
export async function ensureTemplate(dir = templateDir()): Promise<string> {
  if (await isCluster(dir)) return dir;
  await mkdir(dirname(dir), { recursive: true });
  const building = `${dir}.building-${process.pid}-${Date.now()}`;
  const script = fileURLToPath(new URL('./pglite-initdb.ts', import.meta.url));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, building], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`PGlite initdb exited with ${code}: ${stderr.trim()}`))));
  });
  try {
    await rename(building, dir);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    if (!(await isCluster(dir))) throw error;
  }
  return dir;
}

/** Makes dataDir a new empty cluster unless it already holds one. */
export async function seedDataDir(dataDir: string): Promise<void> {
  if (await isCluster(dataDir)) return;
  const template = await ensureTemplate();
  await cp(template, dataDir, { recursive: true });
}
