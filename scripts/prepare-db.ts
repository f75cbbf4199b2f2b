import { ensureTemplate } from '../server/db/pglite-template.ts';

/**
 * `npm run prepare:db`: makes the empty PGlite cluster that each fresh DATA_DIR starts from (see server/db/pglite-template.ts).
 * `npm install` runs it as the project's postinstall with --install: then a failure only warns (the service builds the
 * template on its first start instead), so it can never fail an install.
 */
const atInstall = process.argv.includes('--install');
const started = performance.now();
try {
  const dir = await ensureTemplate();
  console.log(`PGlite template ready in ${Math.round(performance.now() - started)} ms: ${dir}`);
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  if (!atInstall) throw error;
  console.warn(`Could not prepare the PGlite template (${reason}); the first \`npm start\` will make it instead, a few seconds slower.`);
}
