import { describe, expect, it } from 'vitest';
import { startPollLoop } from './poll-loop.ts';
import { closerStack } from './closers.ts';

/** A round that waits until released, recording when each round began and ended. */
function gatedRounds() {
  const log: string[] = [];
  let release: () => void = () => {};
  let n = 0;
  const round = async () => {
    const mine = (n += 1);
    log.push(`begin ${mine}`);
    await new Promise<void>((done) => (release = done));
    log.push(`end ${mine}`);
  };
  return { log, round, release: () => release() };
}

const tick = () => new Promise((done) => setTimeout(done, 5));

describe('startPollLoop', () => {
  it('runs a round at once, never two at a time; a wake during a round gets one more round after it, shared by every wake before it begins', async () => {
    const { log, round, release } = gatedRounds();
    const loop = startPollLoop(round, { pollMs: 60_000 });
    await tick();
    const woken = [loop.wake(), loop.wake(), loop.wake()];
    await tick();
    expect(log).toEqual(['begin 1']);
    release();
    await tick();
    expect(log).toEqual(['begin 1', 'end 1', 'begin 2']);
    release();
    await Promise.all(woken);
    await loop.ready;
    expect(log).toEqual(['begin 1', 'end 1', 'begin 2', 'end 2']);
    await loop.stop();
  });

  it('stop waits for the round under way and runs no other, nor any asked for', async () => {
    const { log, round, release } = gatedRounds();
    const loop = startPollLoop(round, { pollMs: 1 });
    await tick();
    const woken = loop.wake();
    const stopped = loop.stop();
    let done = false;
    void stopped.then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    release();
    await stopped;
    await woken;
    await tick();
    expect(log).toEqual(['begin 1', 'end 1']);
    await loop.wake();
    expect(log).toEqual(['begin 1', 'end 1']);
  });

  it("waits the round's answer before the next round, pollMs when it answers none", async () => {
    const began: number[] = [];
    const loop = startPollLoop(
      async () => {
        began.push(Date.now());
        return began.length === 1 ? 10 : undefined;
      },
      { pollMs: 60_000 },
    );
    await new Promise((done) => setTimeout(done, 200));
    await loop.stop();
    expect(began).toHaveLength(2);
  });

  it('reports a failing round once until its message changes, and keeps polling', async () => {
    const errors: string[] = [];
    const messages = ['down', 'down', 'down', 'other', 'other'];
    let rounds = 0;
    const loop = startPollLoop(
      async () => {
        const message = messages[rounds];
        rounds += 1;
        if (message) throw new Error(message);
      },
      { pollMs: 1, onError: (error) => errors.push(error.message) },
    );
    for (let i = 0; i < 200 && rounds <= messages.length; i += 1) await tick();
    await loop.stop();
    expect(errors).toEqual(['down', 'other']);
  });

  it('sync answers its own round’s error; a first round after firstMs', async () => {
    let rounds = 0;
    const loop = startPollLoop(
      async () => {
        rounds += 1;
        throw new Error('no chain');
      },
      { pollMs: 60_000, firstMs: 60_000 },
    );
    await tick();
    expect(rounds).toBe(0);
    await expect(loop.sync()).rejects.toThrow('no chain');
    expect(rounds).toBe(1);
    await loop.stop();
  });
});

describe('closerStack', () => {
  it('closes last first, every closer even after one fails, throws the first failure, and closes once', async () => {
    const closed: string[] = [];
    const closers = closerStack();
    closers.push('database', () => void closed.push('database'));
    closers.push('clock', () => {
      closed.push('clock');
      throw new Error('stuck');
    });
    closers.push('server', async () => void closed.push('server'));
    await expect(closers.close()).rejects.toThrow('closing clock: stuck');
    await expect(closers.close()).rejects.toThrow('closing clock: stuck');
    expect(closed).toEqual(['server', 'clock', 'database']);
    expect(() => closers.push('late', () => {})).toThrow(/after the stop began/);
  });
});
