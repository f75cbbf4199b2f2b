import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, hintFirstPageChunks } from './prerender-plugin.ts';

function chunk(fileName: string, code: string, extra: Partial<Rollup.OutputChunk> = {}): Rollup.OutputChunk {
  return { type: 'chunk', fileName, code, isEntry: false, imports: [], dynamicImports: [], map: null, ...extra } as unknown as Rollup.OutputChunk;
}

function bundleOf(...files: (Rollup.OutputChunk | Rollup.OutputAsset)[]): Rollup.OutputBundle {
  return Object.fromEntries(files.map((file) => [file.fileName, file]));
}

describe("the first page's chunks carry V8's compile hint", () => {
  it('hints the entry and what it imports statically, never a lazy chunk', () => {
    const bundle = bundleOf(
      chunk('assets/index.js', 'import"./runtime.js";hydrate()', { isEntry: true, imports: ['assets/runtime.js'], dynamicImports: ['assets/lazy.js'] }),
      chunk('assets/runtime.js', 'var e=1'),
      chunk('assets/lazy.js', 'export const page=1'),
    );
    expect(hintFirstPageChunks(bundle)).toEqual(['assets/index.js', 'assets/runtime.js']);
    expect((bundle['assets/index.js'] as Rollup.OutputChunk).code).toBe(`${COMPILE_HINT}import"./runtime.js";hydrate()`);
    expect((bundle['assets/runtime.js'] as Rollup.OutputChunk).code).toBe(`${COMPILE_HINT}var e=1`);
    expect((bundle['assets/lazy.js'] as Rollup.OutputChunk).code).toBe('export const page=1');
  });

  it('opens the file with the hint, the one place V8 reads it', () => {
    const bundle = bundleOf(chunk('assets/index.js', 'run()', { isEntry: true }));
    hintFirstPageChunks(bundle);
    const code = (bundle['assets/index.js'] as Rollup.OutputChunk).code;
    expect(code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
    expect(code.split('\n')[1]).toBe('run()');
  });

  it("moves the source map's lines down by one, once, when run again too", () => {
    const map = { version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA;AACA' };
    const bundle = bundleOf(
      chunk('assets/index.js', 'a\nb', { isEntry: true }),
      { type: 'asset', fileName: 'assets/index.js.map', source: JSON.stringify(map) } as unknown as Rollup.OutputAsset,
    );
    hintFirstPageChunks(bundle);
    hintFirstPageChunks(bundle);
    const source = (bundle['assets/index.js.map'] as Rollup.OutputAsset).source as string;
    expect(JSON.parse(source).mappings).toBe(';AAAA;AACA');
    expect((bundle['assets/index.js'] as Rollup.OutputChunk).code).toBe(`${COMPILE_HINT}a\nb`);
  });

  it('refuses a bundle without an entry rather than ship an unhinted page', () => {
    expect(() => hintFirstPageChunks(bundleOf(chunk('assets/lazy.js', 'x')))).toThrow(/no entry chunk/);
  });
});
