import { ensureTemplate } from '../server/db/pglite-template.ts';

/** `npm run prepare:db`: makes the empty PGlite cluster that each fresh DATA_DIR starts from (see server/db/pglite-template.ts). */
const started = performance.now();
const dir = await ensureTemplate();
console.log(`PGlite template ready in ${Math.round(performance.now() - started)} ms: ${dir}`);
