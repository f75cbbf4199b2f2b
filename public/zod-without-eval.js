// zod compiles object parsers with `new Function` when it may, and tries it once to find out. The production
// Content-Security-Policy (script-src without 'unsafe-eval') refuses that try and reports a violation, so the
// dashboard tells zod up front to interpret instead. It must run before any zod schema is built, and bundled
// chunks evaluate before the entry's own code: hence a plain script that index.html loads ahead of the app.
// __zod_globalConfig is the global zod reads its configuration from (z.config writes the same object).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
