import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind, type Node, type SourceFile } from 'typescript/unstable/ast';

/**
 * Every function, arrow function, method, accessor and constructor in the shipped code (core/, src/, server/,
 * tests excepted) with its length in lines, from the line of its first token to the line of its last, both
 * counted. A nested function counts in its parent too (a 133-line `judge` makes its parent at least that long)
 * and is reported on its own under its parent's name, `checkZoneChange › judge`.
 *
 * The files are parsed by the installed TypeScript (7, the Go compiler, through its `unstable/sync` API over the
 * project's tsconfig.json), so what counts as a function is what the compiler says, not a guess over the text.
 *
 * `node --import tsx scripts/long-functions.ts [limit]` lists the functions longer than the limit (150 unless
 * given), longest first; scripts/long-functions.test.ts fails while any is left.
 */

export const LINE_LIMIT = 150;

export type FunctionSpan = { file: string; name: string; line: number; lines: number };

const FUNCTION_KINDS = new Set<SyntaxKind>([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

const SHIPPED_FOLDERS = ['core', 'src', 'server'];

/** A node's own name when it has one (a declaration, a property, a method), else undefined. */
function nameOf(node: Node, file: SourceFile): string | undefined {
  const name = (node as Node & { name?: Node }).name;
  if (!name) return node.kind === SyntaxKind.Constructor ? 'constructor' : undefined;
  return name.getText(file);
}

/**
 * What a reader would call a function: its own name, else the name it is given (`const f = () => …`,
 * `{ f: () => … }`, `class C { f = () => … }`), else the call it is handed to (`useMemo(() => …)` reads
 * `useMemo callback`).
 */
function functionName(node: Node, file: SourceFile): string {
  const own = node.kind === SyntaxKind.ArrowFunction ? undefined : nameOf(node, file);
  if (own) return own;
  let holder = node.parent;
  while (holder.kind === SyntaxKind.ParenthesizedExpression || holder.kind === SyntaxKind.AsExpression || holder.kind === SyntaxKind.SatisfiesExpression) {
    holder = holder.parent;
  }
  switch (holder.kind) {
    case SyntaxKind.VariableDeclaration:
    case SyntaxKind.PropertyAssignment:
    case SyntaxKind.PropertyDeclaration:
      return nameOf(holder, file) ?? '(anonymous)';
    case SyntaxKind.CallExpression:
    case SyntaxKind.NewExpression: {
      const callee = (holder as Node & { expression: Node }).expression.getText(file);
      return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee} callback`;
    }
    default:
      return '(anonymous)';
  }
}

/** The functions of one parsed file, outermost first, each named under the functions that hold it. */
export function functionSpansOf(file: SourceFile, fileName: string): FunctionSpan[] {
  const spans: FunctionSpan[] = [];
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: Node, outer: string | undefined): void => {
    let inner = outer;
    if (FUNCTION_KINDS.has(node.kind)) {
      const own = functionName(node, file);
      inner = outer ? `${outer} › ${own}` : own;
      const line = lineOf(node.getStart(file));
      spans.push({ file: fileName, name: inner, line, lines: lineOf(node.end) - line + 1 });
    }
    node.forEachChild((child) => visit(child, inner));
  };
  visit(file, undefined);
  return spans;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/**
 * Every function of the project's shipped files (core/, src/, server/, not their tests), read through the
 * compiler over the tsconfig.json in `root`.
 */
export function projectFunctionSpans(root: string, folders: readonly string[] = SHIPPED_FOLDERS): FunctionSpan[] {
  // Parsing is all this needs: a tsconfig of its own, kept in memory, over the shipped folders only, with no
  // library, no types and no module resolution, so the compiler reads nothing else.
  const config = `${root}/long-functions.tsconfig.json`;
  const settings = {
    compilerOptions: { noLib: true, noResolve: true, types: [], jsx: 'react-jsx', allowJs: false },
    include: folders.flatMap((folder) => [`${folder}/**/*.ts`, `${folder}/**/*.tsx`]),
  };
  const api = new API({ cwd: root, fs: { readFile: (name) => (name === config ? JSON.stringify(settings) : undefined) } });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [config] });
    const project = snapshot.getProjects()[0];
    if (!project) throw new Error(`TypeScript found no project at ${root}/tsconfig.json`);
    const spans: FunctionSpan[] = [];
    for (const fileName of project.rootFiles) {
      const path = relative(root, fileName).split(sep).join('/');
      if (!folders.some((folder) => path.startsWith(`${folder}/`)) || isTest(path) || path.endsWith('.d.ts')) continue;
      const file = project.program.getSourceFile(fileName);
      if (!file) throw new Error(`TypeScript could not read ${path}`);
      spans.push(...functionSpansOf(file, path));
    }
    return spans;
  } finally {
    api.close();
  }
}

/** The spans longer than the limit, longest first. */
export function longerThan(spans: readonly FunctionSpan[], limit = LINE_LIMIT): FunctionSpan[] {
  return spans.filter((span) => span.lines > limit).sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

export const describeSpan = (span: FunctionSpan) => `${String(span.lines).padStart(4)}  ${span.name}  (${span.file}:${span.line})`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? LINE_LIMIT);
  const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  const spans = projectFunctionSpans(root);
  const long = longerThan(spans, limit);
  console.log(`${long.length} of ${spans.length} functions in ${SHIPPED_FOLDERS.join('/, ')}/ are over ${limit} lines${long.length ? ':' : '.'}`);
  for (const span of long) console.log(describeSpan(span));
}
