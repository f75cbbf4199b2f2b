import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * `npm run bench:bundle`: builds the dashboard as production would (every wallet offered), then prints
 * what the first page loads — the entry chunk and its static imports, JS and CSS, raw and gzip — and
 * each lazy chunk. Target: the first page at most 100 kB of gzip JS (issues 15 and 37), counting the entry, every chunk
 * it imports statically, the home page's route and the inline script of index.html (zod's setting and the loader
 * that starts the entry after the first paint). The entry's stylesheet is inlined into index.html (scripts/prerender-plugin.ts).
 */
const TARGET_GZIP_JS = 100 * 1024;
interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const outDir = mkdtempSync(join(tmpdir(), 'namefi-bundle-'));
try {
  const build = spawnSync('node_modules/.bin/vite', ['build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, VITE_WALLETS: process.env.VITE_WALLETS ?? 'all' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const size = (file: string) => {
    const bytes = readFileSync(join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('No entry chunk in the manifest');
  /** A chunk and everything it imports statically, less what is already loaded. */
  const closure = (root: string, loaded: Set<string>) => {
    const out = new Set<string>();
    const visit = (key: string) => {
      if (out.has(key) || loaded.has(key) || !manifest[key]) return;
      out.add(key);
      for (const next of manifest[key].imports ?? []) visit(next);
    };
    visit(root);
    return out;
  };
  const total = (files: string[]) => files.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  const report = (title: string, keys: Set<string>) => {
    const files = [...keys].map((k) => manifest[k].file);
    const css = [...new Set([...keys].flatMap((k) => manifest[k].css ?? []))];
    console.log(`\n${title}`);
    for (const file of files) {
      const s = size(file);
      console.log(`  ${file.padEnd(52)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(10)} gzip`);
    }
    const js = total(files);
    const styles = total(css);
    console.log(`  JS  total ${kb(js.raw).padStart(10)} raw ${kb(js.gzip).padStart(10)} gzip`);
    if (css.length) console.log(`  CSS total ${kb(styles.raw).padStart(10)} raw ${kb(styles.gzip).padStart(10)} gzip  (${css.join(', ')})`);
    return { js, css: styles };
  };

  const mode = process.env.VITE_WALLETS ?? 'all';
  const initial = closure(entryKey, new Set());
  const shell = report(`Shell (entry ${entryKey} and its static imports; VITE_WALLETS=${mode}):`, initial);
  const firstRouteKey = 'src/features/search/SearchPage.tsx';
  const route = closure(firstRouteKey, initial);
  const routeSize = report(`The first page's route (${firstRouteKey}), loaded right after the shell:`, route);
  const islandKey = 'src/features/auth/WalletLayer.tsx';
  const island = closure(islandKey, new Set([...initial, ...route]));
  const islandSize = report(`Wallet island (${islandKey}): loaded when a person connects, or at start for a returning wallet:`, island);

  const loaded = new Set([...initial, ...route, ...island]);
  const lazy = Object.entries(manifest)
    .filter(([key]) => !loaded.has(key))
    .map(([key, chunk]) => ({ key, file: chunk.file, ...size(chunk.file) }))
    .sort((a, b) => b.gzip - a.gzip);
  console.log(`\nOther lazy chunks (${lazy.length}: pages, wallet SDKs loaded only when picked, RainbowKit locales and icons), largest first:`);
  for (const chunk of lazy) {
    console.log(`  ${(chunk.key.length > 60 ? `…${chunk.key.slice(-59)}` : chunk.key).padEnd(62)} ${kb(chunk.raw).padStart(10)} raw ${kb(chunk.gzip).padStart(10)} gzip`);
  }
  // The inline script of the built page: zod's setting and the loader that asks for the entry after the first paint.
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).filter(Boolean);
  const inlineSize = inline
    .map((code) => ({ raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length }))
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  console.log(`\nInline scripts of index.html (${inline.length}: zod's setting and the entry's loader):`);
  console.log(`  JS  total ${kb(inlineSize.raw).padStart(10)} raw ${kb(inlineSize.gzip).padStart(10)} gzip`);
  const js = { gzip: shell.js.gzip + routeSize.js.gzip + inlineSize.gzip };
  const returning = js.gzip + islandSize.js.gzip;
  console.log(`\nFirst page, new visitor (shell + route + inline scripts): ${kb(js.gzip)} gzip JS, ${kb(shell.css.gzip + routeSize.css.gzip)} gzip CSS`);
  console.log(`First page, returning wallet (+ wallet island): ${kb(returning)} gzip JS, ${kb(shell.css.gzip + routeSize.css.gzip + islandSize.css.gzip)} gzip CSS`);
  const ok = js.gzip <= TARGET_GZIP_JS;
  console.log(`Target: new visitor's first page ≤ ${kb(TARGET_GZIP_JS)} gzip JS: ${ok ? 'met' : 'NOT met'}; with the wallet island: ${returning <= TARGET_GZIP_JS ? 'met' : 'not met'}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
