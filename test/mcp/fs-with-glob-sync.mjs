// `fs` as Node 22 has it, for a package written for Node 22 (see fs-glob-sync.mjs): Node 20's fs plus globSync, enough
// of it for @modelcontextprotocol/conformance (which globs `**/checks.json` in its tier check): `**`, `*` and `?`.
import { readdirSync } from 'node:fs';

export * from 'node:fs';
export { default } from 'node:fs';

const SPECIAL = '.+^$()|[]{}\\';

// A glob as a regular expression, read token by token: `**/` any directories, `**` anything, `*` and `?` within a name.
function toRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    if (pattern.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (pattern[i] === '*') source += '[^/]*';
    else if (pattern[i] === '?') source += '[^/]';
    else source += SPECIAL.includes(pattern[i]) ? `\\${pattern[i]}` : pattern[i];
  }
  return new RegExp(`^${source}$`);
}

export function globSync(patterns, options = {}) {
  const matchers = (Array.isArray(patterns) ? patterns : [patterns]).map(toRegExp);
  const entries = readdirSync(options.cwd ?? '.', { recursive: true }).map((entry) => String(entry).replace(/\\/g, '/'));
  return entries.filter((entry) => matchers.some((m) => m.test(entry)));
}
