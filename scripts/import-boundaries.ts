import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix } from 'node:path';

/**
 * The import rules the layout promises (README, Layout), checked over the import specifiers of every source file.
 * Files are given as project-relative POSIX paths mapped to their text, so the rules can be tried on a tiny
 * in-memory project as well as on the real one.
 *
 * 1. A feature exposes only its index.ts: anything else in src/features/<f>/ is that feature's own business, so
 *    another feature, lib/, ui/ or a test elsewhere never reaches into it. The one exception is the shell:
 *    src/app may import a component at the top of a feature folder (src/features/<f>/<Name>.tsx: the pages the
 *    routes mount, the layout's islands such as WalletLayer, the domain route's panels), because it loads each
 *    one on its own with lazy(() => import(...)); reached through index.ts, one page would pull in everything
 *    else the index exports, and the pages would no longer load apart.
 * 2. server/ and test/ never import e2e/: the service and its tests must not depend on the browser journeys; helpers
 *    both need live in test/support/ and e2e imports them from there.
 * 3. No cycles between the folders of src/lib/ (a file directly in src/lib/ counts as a folder of its own): the
 *    plumbing is layered, so each folder can be read knowing only the folders below it.
 * 4. core/ (the kernel) is pure TypeScript shared by the service and the dashboard: it imports no React or DOM
 *    module (react, react-dom, jsdom, @testing-library/*), no Node-only module (node:*, or a Node built-in by its
 *    bare name), and nothing of src/ or server/. Its tests may read fixtures with Node.
 * 5. src/ never imports server/ and server/ never imports src/: the dashboard ships without the service and the
 *    service without the dashboard; what both need lives in core/, which every other folder names by its one alias
 *    (`#core/…`, package.json "imports"), never by a relative path.
 * 6. What ships never imports test support: a file of src/ or server/ that is not a test (`*.test.ts`, `*.test.tsx`)
 *    imports nothing of test/ (harnesses, fixtures, fuzz, benches, the kill -9 machinery). A test beside its code
 *    may.
 */

export type SourceFiles = ReadonlyMap<string, string>;

type Token = { string: string } | { word: string };

/**
 * The source as words, punctuation and string literals, without comments and template literals: an import written
 * inside a string or a comment is then never taken for one. A quoted string ends at its line (a stray quote in a
 * regular expression cannot swallow the rest of the file).
 */
function tokens(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      i = source.indexOf('\n', i);
      if (i < 0) break;
    } else if (c === '/' && source[i + 1] === '*') {
      i = source.indexOf('*/', i + 2);
      if (i < 0) break;
      i += 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== c && (c === '`' || source[j] !== '\n')) {
        if (source[j] === '\\') j++;
        else text += source[j];
        j++;
      }
      if (c !== '`') out.push({ string: text });
      i = j + 1;
    } else if (/[\w$]/.test(c)) {
      let j = i;
      while (j < source.length && /[\w$]/.test(source[j])) j++;
      out.push({ word: source.slice(i, j) });
      i = j;
    } else {
      if (!/\s/.test(c)) out.push({ word: c });
      i++;
    }
  }
  return out;
}

/** Every module specifier a file imports or re-exports, static or dynamic (type-only imports included). */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  const list = tokens(source);
  const word = (k: number) => (list[k] && 'word' in list[k] ? list[k].word : undefined);
  const text = (k: number) => (list[k] && 'string' in list[k] ? list[k].string : undefined);
  for (let k = 0; k < list.length; k++) {
    if (word(k) === 'from' && text(k + 1) !== undefined) found.push(text(k + 1)!);
    else if (word(k) === 'import' && text(k + 1) !== undefined) found.push(text(k + 1)!);
    else if (word(k) === 'import' && word(k + 1) === '(' && text(k + 2) !== undefined) found.push(text(k + 2)!);
  }
  return found;
}

/** The project-relative file a specifier names, or undefined for a package. */
export function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (specifier.startsWith('@/')) return posix.join('src', specifier.slice(2));
  if (specifier.startsWith('#core/')) return posix.join('core', specifier.slice('#core/'.length));
  if (specifier.startsWith('./') || specifier.startsWith('../')) return posix.join(posix.dirname(fromFile), specifier);
  return undefined;
}

interface Edge {
  from: string;
  to: string;
}

function edges(files: SourceFiles): Edge[] {
  const all: Edge[] = [];
  for (const [from, source] of files) {
    for (const specifier of importSpecifiers(source)) {
      const to = resolveSpecifier(from, specifier);
      if (to) all.push({ from, to });
    }
  }
  return all;
}

const featureOf = (path: string) => /^src\/features\/([^/]+)\//.exec(path)?.[1];
const mountedComponent = /^src\/features\/[^/]+\/[A-Z]\w*\.tsx$/;

function featureInternals({ from, to }: Edge): string | undefined {
  const feature = featureOf(to);
  if (!feature || featureOf(from) === feature) return undefined;
  if (to === `src/features/${feature}/index.ts`) return undefined;
  if (from.startsWith('src/app/') && mountedComponent.test(to)) return undefined;
  return `${from} imports ${to}: outside a feature, import only src/features/${feature}/index.ts`;
}

function serverImportsE2e({ from, to }: Edge): string | undefined {
  if ((from.startsWith('server/') || from.startsWith('test/')) && to.startsWith('e2e/')) {
    return `${from} imports ${to}: server/ and test/ must not depend on e2e/ (share helpers through test/support/)`;
  }
  return undefined;
}

const NODE_BUILTINS = new Set(builtinModules);
const isTest = (path: string) => /\.test\.tsx?$/.test(path);

/** Rule 6. */
function productionImportsTestSupport({ from, to }: Edge): string | undefined {
  if (/^(src|server)\//.test(from) && !isTest(from) && to.startsWith('test/')) {
    return `${from} imports ${to}: what ships (src/, server/) never imports test support (test/); only a test may`;
  }
  return undefined;
}

/** Rule 4 for one import of a file in core/: `to` is the file it resolves to, undefined for a package. */
function coreImport(from: string, specifier: string, to: string | undefined): string | undefined {
  if (!from.startsWith('core/')) return undefined;
  if (to) {
    const side = /^(src|server)\//.exec(to)?.[1];
    return side ? `${from} imports ${to}: core imports nothing of ${side}/ (it is shared by the service and the dashboard)` : undefined;
  }
  if (isTest(from)) return undefined;
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  if (['react', 'react-dom', 'jsdom'].includes(name) || name.startsWith('@testing-library/')) {
    return `${from} imports ${specifier}: core imports no React or DOM module`;
  }
  if (specifier.startsWith('node:') || NODE_BUILTINS.has(name)) return `${from} imports ${specifier}: core imports no Node-only module`;
  return undefined;
}

/** Rule 5. */
function srcImportsServer({ from, to }: Edge): string | undefined {
  if (from.startsWith('src/') && to.startsWith('server/')) return `${from} imports ${to}: src/ never imports server/ (share it through core/)`;
  if (from.startsWith('server/') && to.startsWith('src/')) return `${from} imports ${to}: server/ never imports src/, the dashboard (share it through core/)`;
  return undefined;
}

/** Rule 5's alias: outside core/, the kernel is named `#core/…`, so a move of either side never breaks the other. */
function relativeIntoCore(from: string, specifier: string): string | undefined {
  if (from.startsWith('core/') || !specifier.startsWith('.')) return undefined;
  const to = resolveSpecifier(from, specifier)!;
  return to.startsWith('core/') ? `${from} imports ${specifier}: name the kernel by its alias (#core/${to.slice('core/'.length)})` : undefined;
}

const libFolderOf = (path: string) => /^src\/lib\/([^/]+)/.exec(path)?.[1];

/** Strongly connected groups of lib folders (Tarjan), each with the imports that tie it together. */
function libCycles(all: Edge[]): string[] {
  const graph = new Map<string, Map<string, Edge[]>>();
  for (const edge of all) {
    const a = libFolderOf(edge.from);
    const b = libFolderOf(edge.to);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    graph.get(a)!.set(b, [...(graph.get(a)!.get(b) ?? []), edge]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => {
    const ties = group.flatMap((a) => group.flatMap((b) => graph.get(a)?.get(b) ?? [])).map((e) => `${e.from} → ${e.to}`);
    return `cycle between src/lib folders ${group.join(' ↔ ')}: ${ties.join('; ')}`;
  });
}

/** Every broken rule, one line each; empty when the code keeps them all. */
export function findViolations(files: SourceFiles): string[] {
  const all = edges(files);
  const perImport = all.flatMap((edge) => [featureInternals(edge), serverImportsE2e(edge), srcImportsServer(edge), productionImportsTestSupport(edge)].filter((v) => v !== undefined));
  const relative = [...files].flatMap(([from, source]) => importSpecifiers(source).map((specifier) => relativeIntoCore(from, specifier))).filter((v) => v !== undefined);
  const inCore = [...files]
    .filter(([from]) => from.startsWith('core/'))
    .flatMap(([from, source]) => importSpecifiers(source).map((specifier) => coreImport(from, specifier, resolveSpecifier(from, specifier))))
    .filter((v) => v !== undefined);
  return [...perImport, ...relative, ...inCore, ...libCycles(all)];
}

const sourceFile = /\.(ts|tsx|mts|cts)$/;

/** The project's source files under the given folders, read from disk. */
export function readSourceFiles(root: string, folders: string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const folder of folders) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !sourceFile.test(entry.name)) continue;
      const absolute = join(entry.parentPath, entry.name);
      const relative = posix.join(folder, absolute.slice(join(root, folder).length + 1).split('\\').join('/'));
      files.set(relative, readFileSync(absolute, 'utf8'));
    }
  }
  return files;
}

export const projectRoot = dirname(dirname(new URL(import.meta.url).pathname));
