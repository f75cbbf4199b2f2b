import { z } from 'zod';

/**
 * zod compiles object parsers with `new Function` when it may; to find out, it tries once. Under the
 * production Content-Security-Policy (script-src without 'unsafe-eval') that try is refused and reported
 * as a violation, so the dashboard tells zod up front to interpret instead. Imported first by main.tsx.
 */
z.config({ jitless: true });
