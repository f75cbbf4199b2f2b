// `fs` as Node 22 has it, for a package written for Node 22 (see fs-glob-sync.mjs): Node 20's fs plus globSync.
import { globSync as tinyGlobSync } from 'tinyglobby';

export * from 'node:fs';
export { default } from 'node:fs';
export const globSync = (patterns, options = {}) => tinyGlobSync(patterns, { cwd: options.cwd, onlyFiles: false, expandDirectories: false });
