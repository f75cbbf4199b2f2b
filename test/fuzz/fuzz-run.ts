import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * How a fuzz file runs its properties: a fixed number of cases per target (never a time budget), a printed seed
 * that `FUZZ_SEED` replays, and a floor: a target that ran fewer cases than it was given fails.
 *
 * - FUZZ_SEED: the run's seed (fast-check's); each target's seed is it plus the target's fixed offset.
 * - FUZZ_SCALE: multiplies every target's case count (0.1 for a quick look, 4 for a long night).
 * - FUZZ_ONLY: comma-separated target names; the others run no case (and are not checked for a floor).
 * - FUZZ_PATH: with FUZZ_ONLY naming one target, replays that one case (fast-check's path) and nothing else.
 * - FUZZ_ANSWERS=1: also prints, per target, how many cases got each answer (by auth form and status, say).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const ONLY = process.env.FUZZ_ONLY ? new Set(process.env.FUZZ_ONLY.split(',').map((s) => s.trim())) : null;
const PATH = process.env.FUZZ_PATH;
const ANSWERS = process.env.FUZZ_ANSWERS === '1';

export class FuzzRun {
  readonly counts = new Map<string, number>();
  readonly answers = new Map<string, Map<string, number>>();

  constructor(
    /** Names the run in its summary and in the replay command: "without a chain", say. */
    readonly label: string,
    /** The test file, for the replay command. */
    readonly file: string,
  ) {}

  /** Whether a target runs in this invocation (FUZZ_ONLY). */
  selected(target: string): boolean {
    return ONLY === null || ONLY.has(target);
  }

  /**
   * Runs `cases` cases of `arbitrary` through `check` (which answers what is wrong, or null), then fails with every
   * kind of problem found, one example each with the command that replays it; and fails when fewer cases ran.
   */
  async property<T>(target: string, offset: number, cases: number, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<string | null>, describe: (value: T) => string) {
    if (!this.selected(target)) return;
    const wanted = PATH === undefined ? Math.max(1, Math.round(cases * SCALE)) : 1;
    const seed = SEED + offset;
    const failures = new Map<string, string>();
    let index = PATH === undefined ? 0 : Number(PATH);
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        const path = index;
        index += 1;
        ran += 1;
        const problem = await check(value);
        // Grouped by what went wrong, one example each: a run reports every kind of failure at once.
        if (problem) {
          const kind = problem.replace(/[0-9a-f-]{36}|0x[0-9a-f]+/gi, '…').slice(0, 120);
          failures.set(kind, `${problem}\n    ${describe(value)}\n    replay: FUZZ_SEED=${SEED} FUZZ_ONLY=${target} FUZZ_PATH=${path} npx vitest run ${this.file}`);
        }
        return true;
      }),
      { numRuns: wanted, seed, ...(PATH === undefined ? {} : { path: PATH }) },
    );
    this.counts.set(target, ran);
    expect([...failures.values()], `fuzz ${this.label}, seed ${SEED}: replay the whole target with FUZZ_SEED=${SEED} FUZZ_ONLY=${target} npx vitest run ${this.file}`).toEqual([]);
    expect(ran, `${target} ran ${ran} of its ${wanted} cases`).toBeGreaterThanOrEqual(wanted);
  }

  /** Tallies what a case got (printed with FUZZ_ANSWERS=1): which paths the cases reach. */
  answered(target: string, answer: string) {
    const tally = this.answers.get(target) ?? new Map<string, number>();
    tally.set(answer, (tally.get(answer) ?? 0) + 1);
    this.answers.set(target, tally);
  }

  /** "fuzz without a chain: 5400 cases (createDnsRecord: 150, …), seed 123": printed after the run. */
  summary(): string {
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    const each = [...this.counts].map(([target, n]) => `${target}: ${n}`).join(', ');
    return [
      `fuzz ${this.label}: ${total} cases (${each}), seed ${SEED}; replay with FUZZ_SEED=${SEED} npx vitest run ${this.file}`,
      ...(ANSWERS ? [...this.answers].map(([target, tally]) => `  ${target}: ${[...tally].sort((a, b) => b[1] - a[1]).map(([answer, n]) => `${answer} ${n}`).join(', ')}`) : []),
    ].join('\n');
  }
}
