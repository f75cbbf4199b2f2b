// Node 20 has no fs.globSync (Node 22 does); @modelcontextprotocol/conformance 0.1.16 imports it by name. Preloaded
// with `node --import`, this serves that package (and it alone) fs-with-glob-sync.mjs in place of `fs`.
import { register } from 'node:module';

const shim = new URL('./fs-with-glob-sync.mjs', import.meta.url).href;
register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) return { url: ${JSON.stringify(shim)}, shortCircuit: true };
      return next(specifier, context);
    }
  `)}`,
);
