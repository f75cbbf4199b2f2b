import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A new PGlite data directory costs an initdb inside WASM: seconds, and ~750 MiB resident that a process never gives
 * back (WASM memory does not shrink), and migrating a new schema costs ~70 MiB more. So the service never runs initdb
 * itself: a short-lived child process makes one migrated cluster (the template) and exits, and each fresh DATA_DIR
 * starts as a copy of it. The template is kept per PGlite version and set of migrations under PGLITE_TEMPLATE_DIR
 * (default: node_modules/.cache, which outlives a reboot's cleared /tmp and goes with a fresh install); `npm install`
 * makes it (postinstall runs `npm run prepare:db`), so not even the first start pays for initdb.
 */
const pgliteVersion = (() => {
  // The package's exports hide its package.json: find it beside the resolved entry.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const root = entry.slice(0, entry.lastIndexOf('/dist/'));
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
})();

const migrationsKey = (() => {
  const dir = fileURLToPath(new URL('./migrations/', import.meta.url));
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest('hex').slice(0, 12);
})();

const defaultRoot = fileURLToPath(new URL('../../node_modules/.cache/namefi-pglite-template', import.meta.url));

export function templateDir(env: Record<string, string | undefined> = process.env): string {
  return join(env.PGLITE_TEMPLATE_DIR || defaultRoot, `pglite-${pgliteVersion}-${migrationsKey}`);
}

export async function isCluster(dir: string): Promise<boolean> {
  return stat(join(dir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/** Builds in flight in this process, so a start that began one early (server/main.ts) does not begin a second. */
const building = new Map<string, Promise<string>>();

/**
 * Runs initdb in a child process (its memory goes with it); concurrent processes each build, the first rename wins,
 * and calls within one process share one build.
 */
export function ensureTemplate(dir = templateDir()): Promise<string> {
  let build = building.get(dir);
  if (!build) {
    build = buildTemplate(dir);
    building.set(dir, build);
    build.catch(() => building.delete(dir));
  }
  return build;
}

async function buildTemplate(dir: string): Promise<string> {
  if (await isCluster(dir)) return dir;
  await mkdir(dirname(dir), { recursive: true });
  const partial = `${dir}.building-${process.pid}-${Date.now()}`;
  const script = fileURLToPath(new URL('./pglite-initdb.ts', import.meta.url));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, partial], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`PGlite initdb exited with ${code}: ${stderr.trim()}`))));
  });
  try {
    await rename(partial, dir);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    if (!(await isCluster(dir))) throw error;
  }
  return dir;
}

/**
 * Starts building the template, when `dataDir` will need one, without waiting: the first start after a new migration
 * builds it in a child process while the service's modules load, instead of after.
 */
export async function prepareEarly(dataDir: string): Promise<void> {
  if (!(await isCluster(dataDir))) ensureTemplate().catch(() => undefined);
}

/** Makes dataDir a new empty cluster unless it already holds one. */
export async function seedDataDir(dataDir: string): Promise<void> {
  if (await isCluster(dataDir)) return;
  const template = await ensureTemplate();
  await cp(template, dataDir, { recursive: true });
}
