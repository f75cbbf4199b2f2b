import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeSpan, LINE_LIMIT, longerThan, projectFunctionSpans } from './long-functions.ts';


const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const lines = (count: number) => Array.from({ length: count }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('functions under 150 lines', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'long-functions-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('measures every function the compiler sees, a nested one in its parent and by itself, and skips tests', () => {
    mkdirSync(join(scratch, 'core'));
    mkdirSync(join(scratch, 'src'));
    // outer: its first line, 2 lines of its own, the 148-line arrow function, its last line: 152 lines.
    writeFileSync(
      join(scratch, 'core/outer.ts'),
      `export function outer() {\n${lines(2)}\n  const inner = () => {\n${lines(146)}\n  };\n}\n`,
    );
    // A 151-line component method and a 150-line one, right at the limit.
    writeFileSync(
      join(scratch, 'src/Panel.tsx'),
      `export class Panel {\n  tooLong() {\n${lines(149)}\n  }\n  atLimit() {\n${lines(148)}\n  }\n}\n`,
    );
    writeFileSync(join(scratch, 'src/Panel.test.tsx'), `export function longTest() {\n${lines(200)}\n}\n`);
    writeFileSync(join(scratch, 'elsewhere.ts'), `export function longElsewhere() {\n${lines(200)}\n}\n`);

    const spans = projectFunctionSpans(scratch);
    expect(spans.map(({ file, name, lines }) => ({ file, name, lines }))).toEqual([
      { file: 'core/outer.ts', name: 'outer', lines: 152 },
      { file: 'core/outer.ts', name: 'outer › inner', lines: 148 },
      { file: 'src/Panel.tsx', name: 'tooLong', lines: 151 },
      { file: 'src/Panel.tsx', name: 'atLimit', lines: 150 },
    ]);
    expect(longerThan(spans).map((span) => span.name)).toEqual(['outer', 'tooLong']);
  });

  it(`leaves no function of core/, src/ or server/ over ${LINE_LIMIT} lines`, () => {
    const spans = projectFunctionSpans(root);
    // The walk found the code it judges, so an empty list means something.
    expect(spans.length).toBeGreaterThan(1000);
    expect(longerThan(spans).map(describeSpan), 'split these into named steps').toEqual([]);
  });
});
