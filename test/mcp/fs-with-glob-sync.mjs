// `fs` as Node 22 has it, for a package written for Node 22 (see fs-glob-sync.mjs): Node 20's fs plus globSync, enough
// of it for @modelcontextprotocol/conformance (which globs `**/checks.json` in its tier check): `**`, `*` and `?`.
import { readdirSync } from 'node:fs';

export * from 'node:fs';
export { default } from 'node:fs';

const toRegExp = (pattern) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*\*/g, '\u0001')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\u0000/g, '(?:.*/)?')
      .replace(/\u0001/g, '.*')}$`,
  );

export function globSync(patterns, options = {}) {
  const matchers = (Array.isArray(patterns) ? patterns : [patterns]).map(toRegExp);
  const entries = readdirSync(options.cwd ?? '.', { recursive: true }).map((entry) => String(entry).replace(/\\/g, '/'));
  return entries.filter((entry) => matchers.some((m) => m.test(entry)));
}
