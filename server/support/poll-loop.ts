export interface PollLoop {
  /** The first round's end (or the stop, if the loop was stopped first); a failure of it went to `onError`. */
  readonly ready: Promise<void>;
  /**
   * Asks for a round soon: at once when none is under way, else right after the one under way (calls made before it
   * begins share it). Answers once a round begun after the call has ended; its failure goes to `onError`.
   */
  wake(): Promise<void>;
  /** Runs a round now, after any round under way, and answers when it ends (its error too). */
  sync(): Promise<void>;
  /** No round after this one; answers once the one under way has ended. */
  stop(): Promise<void>;
}

export interface PollLoopOptions {
  /** The wait from a round's end to the next round. */
  pollMs: number;
  /** The wait before the first round (default: none, it begins at once). */
  firstMs?: number;
  /** A failed round's error, reported once until its message changes, so a dependency that stays down does not flood the log. */
  onError?: (error: Error) => void;
}

/**
 * The one loop every background worker of the service runs on: `round` at once (or after `firstMs`), then `pollMs`
 * after each round ends, or sooner when woken; never two rounds at a time, until stopped. `round` is told whether the
 * loop was stopped, to end a long catch-up early, and may answer how long to wait before the next round instead of
 * `pollMs` (the order worker waits for the next order due).
 */
export function startPollLoop(round: (stopped: () => boolean) => Promise<void | number>, options: PollLoopOptions): PollLoop {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The last round asked for; every round follows the one before it. Never rejects. */
  let tail: Promise<unknown> = Promise.resolve();
  /** A round asked for (woken, or its time came) that has not begun: every wake until it begins shares it. */
  let queued: Promise<void> | null = null;
  let lastError = '';
  let readyDone = () => {};
  const ready = new Promise<void>((done) => (readyDone = done));
  const isStopped = () => stopped;

  const arm = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => void wake(), Math.max(0, ms));
    timer.unref?.();
  };
  const report = (error: unknown) => {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (failure.message !== lastError) options.onError?.(failure);
    lastError = failure.message;
  };
  const scheduledRound = async () => {
    queued = null;
    if (stopped) return;
    clearTimeout(timer);
    let waitMs = options.pollMs;
    try {
      const next = await round(isStopped);
      if (typeof next === 'number') waitMs = next;
      lastError = '';
    } catch (error) {
      report(error);
    }
    readyDone();
    arm(waitMs);
  };
  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (queued) return queued;
    const run = tail.then(scheduledRound);
    queued = run;
    tail = run;
    return run;
  }

  if (options.firstMs) arm(options.firstMs);
  else void wake();
  return {
    ready,
    wake,
    sync() {
      const run = tail.then(() => round(isStopped)).then(() => undefined);
      tail = run.catch(() => undefined);
      return run;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      readyDone();
      await tail;
    },
  };
}
