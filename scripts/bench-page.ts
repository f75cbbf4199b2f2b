import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { freePort } from '../test/support/ports.ts';
import { findBrowser } from './find-browser.ts';
import { waitForQuietCpu } from './quiet-cpu.ts';

/**
 * `npm run bench:page`: what a phone sees of the home page, measured by Lighthouse itself (its default mobile preset:
 * simulated slow 4G and 4× CPU slowdown on a Moto G Power-sized screen). Builds the dashboard for production, serves it
 * brotli-compressed from a small static server, runs Lighthouse against it RUNS times and prints each run's
 * performance, TBT and LCP (with its long tasks), then the median run's scores and metrics, and what Lighthouse says
 * blocks the first render. Lighthouse 13 declares Node ≥ 22 but runs here on Node 20. Targets (issue 37), in EACH
 * run: performance ≥ 99, TBT ≤ 50 ms, LCP ≤ 1.5 s; and accessibility, best practices and SEO 100.
 */
const TARGET_PERFORMANCE = 99;
const TARGET_LCP_MS = 1_500;
const TARGET_TBT_MS = 50;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

const TEXT = /text|javascript|json|svg/;

/**
 * Serves the build as a production host would: brotli for text (compressed ahead, as a host's build step would, so no
 * load waits on the compressor), long caching for hashed assets, index.html for app routes.
 */
function serveStatic(root: string): Server {
  const compressed = new Map<string, Buffer>();
  const compress = (file: string) => brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    if (entry.isFile() && TEXT.test(TYPES[extname(file)] ?? '')) compressed.set(file, compress(file));
  }
  return createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    let body: Buffer = readFileSync(file);
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (compressed.has(file) && /\bbr\b/.test(String(request.headers['accept-encoding']))) {
      body = compressed.get(file)!;
      headers['content-encoding'] = 'br';
    }
    response.writeHead(200, headers).end(body);
  });
}

type Audit = { numericValue?: number; score: number | null; details?: { items?: Record<string, unknown>[] } };
type Report = { categories: Record<string, { score: number | null }>; audits: Record<string, Audit> };

const LIGHTHOUSE = fileURLToPath(new URL('../node_modules/lighthouse/cli/index.js', import.meta.url));

/** One cold Lighthouse run (mobile preset), its JSON report. Asynchronous: the static server runs in this process. */
async function lighthouse(url: string, chromePath: string, run: number): Promise<Report> {
  const output = join(tmpdir(), `namefi-lighthouse-${process.pid}-${run}.json`);
  const child = spawn(
    process.execPath,
    [
      LIGHTHOUSE,
      url,
      '--quiet',
      '--output=json',
      ...(process.env.LIGHTHOUSE_REPORTS ? ['--save-assets'] : []),
      `--output-path=${output}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: chromePath } },
  );
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (status !== 0) throw new Error(`Lighthouse exited with ${status}`);
  const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
  // LIGHTHOUSE_REPORTS=dir keeps every run's whole report (run-1.json…): the bad run is the one to read, not the median.
  // With it Lighthouse also saves each run's trace (run-1.trace.json…), whose tasks say what crossed 50 ms.
  const reports = process.env.LIGHTHOUSE_REPORTS;
  if (reports) {
    writeFileSync(join(reports, `run-${run + 1}.json`), JSON.stringify(report));
    const trace = output.replace(/\.json$/, '-0.trace.json');
    if (existsSync(trace)) renameSync(trace, join(reports, `run-${run + 1}.trace.json`));
    rmSync(output.replace(/\.json$/, '-0.devtoolslog.json'), { force: true });
  }
  rmSync(output, { force: true });
  return report;
}

const score = (report: Report, category: string) => Math.round((report.categories[category]?.score ?? 0) * 100);
const seconds = (report: Report, audit: string) => `${((report.audits[audit]?.numericValue ?? NaN) / 1000).toFixed(2)} s`;
const metric = (report: Report, audit: string) => report.audits[audit]?.numericValue ?? Infinity;

/** The main thread's long tasks as Lighthouse saw them (simulated ms), and what each ran: where TBT comes from. */
function longTasks(report: Report): string {
  const items = report.audits['long-tasks']?.details?.items ?? [];
  if (!items.length) return 'none';
  return items
    .map((item) => `${Math.round(Number(item.duration))} ms at ${Math.round(Number(item.startTime))} ms (${String(item.url ?? '').replace(/^https?:\/\/[^/]+/, '') || '?'})`)
    .join('; ');
}

/** Whether one run meets the page's targets: performance, TBT and LCP. */
const runMeets = (report: Report) =>
  score(report, 'performance') >= TARGET_PERFORMANCE && metric(report, 'total-blocking-time') <= TARGET_TBT_MS && metric(report, 'largest-contentful-paint') <= TARGET_LCP_MS;

/** Lighthouse's own account of what it would fix, from the audits that failed. */
function findings(report: Report): string[] {
  const lines: string[] = [];
  for (const [id, audit] of Object.entries(report.audits)) {
    if (audit.score === null || audit.score >= 0.9 || !('title' in audit)) continue;
    const items = audit.details?.items ?? [];
    const named = items
      .map((item) => String(item.url ?? (item.node as { snippet?: string } | undefined)?.snippet ?? ''))
      .filter(Boolean)
      .slice(0, 3);
    lines.push(`${id}: ${(audit as Audit & { title: string }).title}${named.length ? ` — ${named.join(', ')}` : ''}`);
  }
  return lines;
}

const found = await findBrowser();
if ('error' in found || !found.path) {
  console.error('error' in found ? found.error : 'Lighthouse needs a Chromium on disk: set CHROMIUM_PATH.');
  process.exit(1);
}
const outDir = mkdtempSync(join(tmpdir(), 'namefi-page-'));
let server: Server | undefined;
try {
  const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, VITE_WALLETS: process.env.VITE_WALLETS ?? 'all' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const port = await freePort();
  server = serveStatic(outDir);
  await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${port}/`;

  const reports: Report[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Each run starts on a quiet machine: the build before the first, or the browser of the one before, still busy on
    // the other core would be counted as the page's own blocking time.
    const quiet = await waitForQuietCpu();
    const report = await lighthouse(url, found.path, run);
    reports.push(report);
    // Each run is checked, not only the median: a page that scores 99 twice and 94 once does not meet the goal.
    console.log(
      `  run ${run + 1}: performance ${score(report, 'performance')}, TBT ${Math.round(metric(report, 'total-blocking-time'))} ms, ` +
        `FCP ${seconds(report, 'first-contentful-paint')}, LCP ${seconds(report, 'largest-contentful-paint')} ` +
        `(CPU ${Math.round(quiet.idle * 100)}% idle before it, after ${(quiet.waitedMs / 1000).toFixed(0)} s; load average ${loadavg()[0].toFixed(1)}) ` +
        `${runMeets(report) ? 'meets' : 'MISSES'} the targets`,
    );
    console.log(`         long tasks: ${longTasks(report)}`);
  }
  // The median run by performance score, so one noisy run on a shared machine neither flatters nor sinks the result.
  const median = [...reports].sort((a, b) => score(a, 'performance') - score(b, 'performance'))[Math.floor(reports.length / 2)];
  // LIGHTHOUSE_REPORT=file keeps the median run's whole report, for reading what a figure is made of.
  if (process.env.LIGHTHOUSE_REPORT) writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(median));
  const categories = ['performance', 'accessibility', 'best-practices', 'seo'].map((c) => [c, score(median, c)] as const);
  console.log(`\nLighthouse 13, mobile preset (simulated slow 4G, 4× CPU), home page, production build served with brotli; median of ${RUNS}:`);
  // TBT is simulated from the tasks Chromium really ran, so a busy machine raises it: say how busy this one was.
  console.log(`  (load average ${loadavg().map((n) => n.toFixed(1)).join(', ')} on ${availableParallelism()} cores)`);
  for (const [name, value] of categories) console.log(`  ${name.padEnd(15)} ${value}`);
  console.log(`  FCP             ${seconds(median, 'first-contentful-paint')}`);
  console.log(`  LCP             ${seconds(median, 'largest-contentful-paint')}  (target ≤ ${TARGET_LCP_MS / 1000} s)`);
  console.log(`  TBT             ${Math.round(metric(median, 'total-blocking-time'))} ms  (target ≤ ${TARGET_TBT_MS} ms)`);
  console.log(`  CLS             ${(median.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)}`);
  console.log(`  Speed Index     ${seconds(median, 'speed-index')}`);
  const notes = findings(median);
  if (notes.length) console.log(`What Lighthouse flags:\n${notes.map((line) => `  - ${line}`).join('\n')}`);
  const runsMet = reports.filter(runMeets).length;
  console.log(`  runs meeting performance ≥ ${TARGET_PERFORMANCE}, TBT ≤ ${TARGET_TBT_MS} ms and LCP ≤ ${TARGET_LCP_MS / 1000} s: ${runsMet} of ${RUNS}`);
  const met = runsMet === RUNS && categories.every(([name, value]) => name === 'performance' || value >= 100);
  console.log(met ? 'All targets met.' : 'Targets NOT met.');
  process.exitCode = met ? 0 : 1;
} finally {
  server?.close();
  rmSync(outDir, { recursive: true, force: true });
}
