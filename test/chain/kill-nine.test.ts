import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { processInfo, readPidfile } from '../../server/chain/anvil-pidfile.ts';
import { driveUntilDead, journey, WrongAnswer, type Kill, type Round, type Step } from './kill-nine-journey.ts';
import { startService, type Running } from './kill-nine-process.ts';
import { verify } from './kill-nine-verify.ts';

/**
 * The kill -9 suite: the real service (`node --import tsx server/main.ts`, CHAIN=anvil, PGlite) runs the journey
 * faucet → checkout → x402 purchase → smart-account deployment → order processing → record write and is SIGKILLed at
 * one point per round, then started again on the same DATA_DIR. Each kill is proved: an instrumented point prints its
 * marker as the service dies there, a timed one is the suite's own SIGKILL of a live service inside its step. Every
 * answer of the journey is checked; a request fails only because the service died. After each restart the state the
 * journey was acknowledged (orders, charges and refunds, NFT holders, x402 purchases, DNS records, smart accounts) is
 * compared by value, and the chain with the database's journal.
 */

// Sized to fit npm test's 25 minutes: every instrumented point, and the timed ones at the start and late in each step.
const KILLS: Kill[] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ label: `after chain write #${n}, before its commit`, env: `chain-write:${n}` })),
  ...[1, 2, 3].map((n) => ({ label: `inside atomic file write #${n} (temp written, not renamed)`, env: `atomic-write:${n}` })),
  { label: 'inside the x402 purchase: settled on the chain, its order not written', env: 'x402-settled:1' },
  { label: 'after a smart-account deployment (journaled, the chain state maybe not saved)', env: 'account-deployed:1' },
  ...[0, 10].map((ms) => ({ label: `${ms} ms into the faucet request`, after: { step: 'faucet' as const, ms } })),
  ...[0, 15].map((ms) => ({ label: `${ms} ms into the checkout`, after: { step: 'register' as const, ms } })),
  ...[30, 120].map((ms) => ({ label: `${ms} ms into order processing`, after: { step: 'processing' as const, ms } })),
  ...[0, 5].map((ms) => ({ label: `${ms} ms into the record write`, after: { step: 'record' as const, ms } })),
  { label: 'idle, after the journey', after: { step: 'end', ms: 0 } },
];

let dataDir: string;
let current: Running | null = null;
/** What the start after the kill inside the x402 purchase made of it, for the summary. */
let x402Outcome = '';
/** How many rounds' smart accounts the last check required to be there (journaled before the service died). */
let accountsRequired = 0;
afterAll(async () => {
  if (current) await current.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it(`survives SIGKILL at ${KILLS.length} points across faucet → checkout → x402 → smart account → processing → record writes`, { timeout: 900_000 }, async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-kill9-'));
  const started = performance.now();
  const rounds: Round[] = [];
  const reached: string[] = [];
  const timings = { lives: 0, verify: 0 };
  /** Each round's life until its kill, to name the slowest (a round far over the others is a stall to find). */
  const lives: Array<[string, number]> = [];
  for (const [index, kill] of KILLS.entries()) {
    const service = (current = startService(dataDir, kill.env));
    const round: Round = { index, kill, reached: [], faucet: false, orders: {}, record: false };
    rounds.push(round);
    const plan = kill.after;
    let timer: Promise<void> | null = null;
    let killedByTest = false;
    const at = (step: Step) => {
      round.reached.push(step);
      if (plan?.step !== step) return;
      timer = new Promise((fired) =>
        setTimeout(() => {
          killedByTest = service.alive();
          if (killedByTest) service.child.kill('SIGKILL');
          fired();
        }, plan.ms),
      );
    };
    const roundStarted = performance.now();
    const outcome = await journey(service, dataDir, round, at).then(
      () => null,
      (error: unknown) => error,
    );
    if (timer) await timer;
    // A request may fail only because the service died (at its crash point, or by the suite's SIGKILL): a failed
    // request sees the closed socket before this process sees the exit, which follows within moments.
    if (outcome && !(outcome instanceof WrongAnswer)) await Promise.race([service.exited, new Promise((r) => setTimeout(r, 5000))]);
    if (outcome instanceof WrongAnswer || (outcome && !service.killed() && !killedByTest)) {
      throw new Error(`round ${index} (${kill.label}): the journey failed at ${round.reached.at(-1) ?? 'start'}: ${(outcome as Error).message}`, { cause: outcome });
    }
    if (kill.env && outcome === null) {
      await driveUntilDead(service).catch(async (error: unknown) => {
        await Promise.race([service.exited, new Promise((r) => setTimeout(r, 5000))]);
        if (error instanceof WrongAnswer || !service.killed()) throw error;
      });
    }
    if (kill.env && service.alive()) throw new Error(`round ${index}: the journey ended without reaching ${kill.env} (${kill.label})`);
    const pid = (await readPidfile(join(dataDir, 'chain', 'anvil.pid')))?.pid;
    await service.kill();
    round.diedAt = service.exitedAt()!;
    if (kill.env) {
      expect(service.crashPoints, `round ${index}: the service died at ${kill.env}`).toEqual([kill.env]);
      expect(killedByTest).toBe(false);
    } else {
      expect(killedByTest, `round ${index}: the suite's SIGKILL hit the live service ${kill.label}`).toBe(true);
      expect(round.reached).toContain(plan!.step);
      expect(service.crashPoints).toEqual([]);
    }
    expect(service.killed()).toBe(true);
    reached.push(kill.env ?? `${plan!.step}+${plan!.ms}ms`);
    // No anvil outlives its service: the kernel ends it with the service (setpriv --pdeathsig).
    if (pid) await expect.poll(() => processInfo(pid), { timeout: 5000, interval: 20 }).toBeNull();
    const verifyStarted = performance.now();
    const checked = await verify(dataDir, rounds, (s) => (current = s));
    x402Outcome = checked.x402Outcome || x402Outcome;
    accountsRequired = checked.accountsRequired;
    timings.lives += verifyStarted - roundStarted;
    lives.push([kill.env ?? `${plan!.step}+${plan!.ms}ms`, verifyStarted - roundStarted]);
    timings.verify += performance.now() - verifyStarted;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const instrumented = KILLS.filter((k) => k.env).length;
  console.log(
    `kill -9 suite: ${reached.length}/${KILLS.length} kill points reached (${instrumented} instrumented, each by its marker; ` +
      `${reached.length - instrumented} timed, each the suite's SIGKILL of a live service in its step), ${rounds.length} restarts verified, ${seconds} s ` +
      `(journeys to their kill ${(timings.lives / 1000).toFixed(1)} s, restarts and checks ${(timings.verify / 1000).toFixed(1)} s)\n` +
      `kill points reached: ${reached.join(', ')}\n` +
      `slowest lives: ${[...lives].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n` +
      `the x402 purchase killed after its settlement: ${x402Outcome}\n` +
      `smart accounts required after the last restart (journaled before their service died): ${accountsRequired} of ${rounds.filter((r) => r.account).length}`,
  );
  expect(reached.length).toBe(KILLS.length);
});
