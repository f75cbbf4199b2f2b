import Beasties from 'beasties';
import { join } from 'node:path';
import { runnerImport, type Alias, type Plugin, type Rollup } from 'vite';

const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;

/**
 * The entry module starts once the page has painted: a fixed inline script adds it, and the preloads of the modules
 * it imports, after the next frame, so the pre-rendered page is on screen before any of React is fetched or
 * evaluated. Nothing but the document and the stylesheet is requested before that first paint: Lighthouse counts
 * every request that starts before the largest paint as holding it up (on a slow phone the 80 kB entry alone is
 * ~0.4 s), and the paint needs none of them. A page in a background tab paints no frame: the timer starts it there.
 */
function startAfterPaint(html: string): string {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) throw new Error('index.html has no entry module script to start after the first paint');
  const src = entry[1];
  const preloads = [src, ...[...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]).filter((href) => href !== src)];
  const loader =
    `<script>(function(){var go=function(){if(go.done)return;go.done=1;var h=document.head;` +
    `${JSON.stringify(preloads)}.forEach(function(u){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;h.appendChild(l)});` +
    `var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(src)};h.appendChild(s)};` +
    `requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,200)})()</script>`;
  return html.replace(MODULE_PRELOAD, '').replace(entry[0], '').replace('</body>', `${loader}</body>`);
}

/** Beasties reading the stylesheets from the bundle being written rather than from disk, where they are not yet. */
class BundleBeasties extends Beasties {
  constructor(private readonly bundle: Rollup.OutputBundle) {
    super({
      path: '/',
      publicPath: '/',
      // The full stylesheet loads without blocking the first paint: the parser only preloads it, and a fixed inline
      // script (covered by the Content-Security-Policy's script hashes, see csp-plugin.ts) adds it as media="print",
      // switched to all media once loaded. A parser-inserted stylesheet whose media is switched while it is still
      // loading would block rendering again.
      preload: 'js-lazy',
      noscriptFallback: true,
      pruneSource: false,
      inlineFonts: false,
      logLevel: 'warn',
    });
  }

  override readFile(filename: string): string {
    const asset = this.bundle[filename.replace(/^\/+/, '')];
    if (!asset || asset.type !== 'asset') throw new Error(`The stylesheet ${filename} is not in the bundle`);
    return typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
  }
}

/**
 * The built index.html carries the home page already rendered, so its first paint is the page itself and stays:
 * src/app/prerender.tsx renders it from the same components at build time, and src/main.tsx hydrates it. The CSS that
 * markup uses is inlined; the rest of the stylesheet loads without blocking. Runs before the CSP plugin, which hashes
 * the inline scripts this leaves. The dev server is untouched (the page renders on the client).
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
        // The stylesheet's preload must match the link the loader script adds (no crossorigin, as same-origin needs
        // none), or the browser fetches it twice and warns that the preload went unused.
        const page = html
          .replace(ROOT_ELEMENT, `<div id="root">${module.homeMarkup}</div>`)
          .replaceAll(/<link rel="stylesheet" crossorigin href=/g, '<link rel="stylesheet" href=');
        return startAfterPaint(await new BundleBeasties(context.bundle).process(page));
      },
    },
  };
}
