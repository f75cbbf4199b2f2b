import { join } from 'node:path';
import { runnerImport, type Alias, type Plugin, type Rollup } from 'vite';

const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;
const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g;

/**
 * The entry's stylesheet goes into the page itself. It is small (about 6 kB with brotli, 3 kB more than the critical
 * part alone), and as a second request it cost twice: a stylesheet fetched before the first paint is counted by
 * Lighthouse as holding that paint up, and one applied after it restyles the whole page in a task of its own, which
 * a slow phone takes 40–140 ms over (issue 37). Lazy chunks keep their own stylesheets.
 */
function inlineStylesheets(html: string, bundle: Rollup.OutputBundle): string {
  return html.replace(STYLESHEET, (_link, file: string) => {
    const asset = bundle[file];
    if (!asset || asset.type !== 'asset') throw new Error(`The stylesheet ${file} is not in the bundle`);
    const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
    if (css.includes('</style')) throw new Error(`The stylesheet ${file} cannot be inlined: it contains </style`);
    return `<style>${css}</style>`;
  });
}

/**
 * The page's one inline script, at the end of the body, and everything the first page does before React:
 *
 * - zod is told to interpret (jitless) before any schema parses: it compiles object parsers with new Function when it
 *   may, and tries once to find out; the production Content-Security-Policy (no 'unsafe-eval') refuses that try and
 *   reports a violation. __zod_globalConfig is the object z.config writes too.
 * - Once the first contentful paint is on screen (the Paint Timing entry; the next frame where that is unknown), one
 *   step per task: touch localStorage (the first use in a page waits for the browser to load the site's storage, up
 *   to 50 ms here; hydration reads settings and session, and that wait would join React's work), then add the entry
 *   and the preloads of the modules it imports. Nothing but the document is requested before that paint: Lighthouse
 *   counts a script requested before it as holding it up (on a slow phone the 80 kB entry alone is ~0.4 s of network
 *   that the paint needs none of). A page that paints nothing (a background tab) starts on the timer.
 *
 * One inline script, not one per job: inline scripts run inside the parser's task, and the four there made it
 * the long task Lighthouse counted right after the first paint (issue 37).
 */
function startAfterPaint(html: string): string {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) throw new Error('index.html has no entry module script to start after the first paint');
  const src = entry[1];
  const preloads = [src, ...[...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]).filter((href) => href !== src)];
  const loader =
    `<script>(function(){globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});` +
    `var h=document.head,steps=[function(){try{localStorage.getItem('namefi.dashboard.theme')}catch(e){}},` +
    `function(){${JSON.stringify(preloads)}.forEach(function(u){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;h.appendChild(l)});` +
    `var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(src)};h.appendChild(s)}];` +
    `var next=function(){var step=steps.shift();if(step){step();setTimeout(next,0)}};` +
    `var go=function(){if(go.done)return;go.done=1;setTimeout(next,0)};` +
    `var P=window.PerformanceObserver,paints=P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0;` +
    `if(paints)new P(function(list){if(list.getEntriesByName('first-contentful-paint').length)go()}).observe({type:'paint',buffered:true});` +
    `else requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,1000)})()</script>`;
  return html.replace(MODULE_PRELOAD, '').replace(entry[0], '').replace('</body>', `${loader}</body>`);
}

/** V8's explicit compile hint: a script that opens with this comment has all its functions compiled eagerly. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * The first page's chunks (the entry and what it imports statically) open with V8's compile hint. Without it V8
 * compiles each function on its first call, on the main thread: hydration's first calls into React made tasks of
 * 13–20 ms here, which Lighthouse's 4× slower phone counts as long tasks (issue 37). With it, the functions are
 * compiled while the script streams in, on a background thread. Lazy chunks stay lazily compiled: most of what
 * they hold never runs on a given visit.
 */
export function hintFirstPageChunks(bundle: Rollup.OutputBundle): string[] {
  const entry = Object.values(bundle).find((file): file is Rollup.OutputChunk => file.type === 'chunk' && file.isEntry);
  if (!entry) throw new Error('The bundle has no entry chunk to hint');
  const firstPage = [entry.fileName, ...entry.imports];
  for (const fileName of firstPage) {
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk' || chunk.code.startsWith(COMPILE_HINT)) continue;
    chunk.code = COMPILE_HINT + chunk.code;
    // The hint is one more line at the top: every mapped line moves down by one, in the map the chunk carries and in
    // the map file already in the bundle (a build with sourcemaps).
    if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
    const mapFile = bundle[`${fileName}.map`];
    if (mapFile?.type === 'asset') {
      const map = JSON.parse(typeof mapFile.source === 'string' ? mapFile.source : new TextDecoder().decode(mapFile.source)) as { mappings: string };
      mapFile.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` });
    }
  }
  return firstPage;
}

/**
 * The built index.html carries the home page already rendered, so its first paint is the page itself and stays:
 * src/app/prerender.tsx renders it from the same components at build time, and src/main.tsx hydrates it. Its
 * stylesheet is inlined and its scripts start after that paint. Runs before the CSP plugin, which hashes the inline
 * script this leaves, and its chunks carry V8's compile hint. The dev server is untouched (the page renders on the
 * client).
 */
export function prerenderPlugin(): Plugin {
  let root = '';
  let mode = 'production';
  let alias: Alias[] = [];
  return {
    name: 'namefi-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      mode = config.mode;
      alias = config.resolve.alias;
    },
    // After Vite's own generateBundle, which puts the preload map (__vite__mapDeps) at the top of the chunks.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        hintFirstPageChunks(bundle);
      },
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        if (!context.bundle) return html;
        if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no empty ${ROOT_ELEMENT} to pre-render into`);
        const { module } = await runnerImport<{ homeMarkup: string }>(join(root, 'src/app/prerender.tsx'), {
          configFile: false,
          root,
          mode,
          logLevel: 'warn',
          resolve: { alias },
        });
        const page = html.replace(ROOT_ELEMENT, `<div id="root">${module.homeMarkup}</div>`);
        return startAfterPaint(inlineStylesheets(page, context.bundle));
      },
    },
  };
}
