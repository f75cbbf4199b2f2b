import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { headerPolicy, metaPolicy } from '../src/app/csp.ts';
import { endpointsFromEnv } from '../src/lib/endpoints.ts';

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const META_CSP = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i;

/** sha256 (base64) of every inline <script> left in the HTML: script-src allows exactly those. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.push(createHash('sha256').update(body, 'utf8').digest('base64'));
  }
  return hashes;
}

export function policyInHtml(html: string): string | undefined {
  const found = META_CSP.exec(html)?.[1];
  return found?.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

/**
 * Puts the Content-Security-Policy into the production index.html ahead of every script and stylesheet (a
 * meta policy only governs what comes after it), and has `vite preview` send the built policy as a header too,
 * with frame-ancestors, which only a header can carry. The dev server gets none: it injects inline scripts.
 */
export function cspPlugin(): Plugin {
  let env: Record<string, string | boolean | undefined> = {};
  let outDir = 'dist';
  let builtPolicy: string | undefined;
  return {
    name: 'namefi-csp',
    configResolved(config) {
      env = config.env;
      outDir = resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        const policy = metaPolicy(env, { scriptHashes: inlineScriptHashes(html) });
        const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}" />`;
        // Right after <meta charset> (which must stay first), before any script or stylesheet.
        const anchor = /<meta\s+charset=[^>]*>/i.exec(html) ?? /<head[^>]*>/i.exec(html);
        if (!anchor) throw new Error('index.html has no <head>: nowhere to put the Content-Security-Policy');
        const at = anchor.index + anchor[0].length;
        return `${html.slice(0, at)}\n    ${meta}${html.slice(at)}`;
      },
    },
    configurePreviewServer(server) {
      server.middlewares.use((_request, response, next) => {
        // Read once from the served build, so the header is the policy that build was made with.
        builtPolicy ??= policyInHtml(readFileSync(join(outDir, 'index.html'), 'utf8')) ?? '';
        if (builtPolicy) response.setHeader('Content-Security-Policy', headerPolicy(builtPolicy, endpointsFromEnv(env).safeAppOrigins));
        next();
      });
    },
  };
}
