export interface PollLoop {
  /** Runs a round now, after any round under way, and answers when it ends (its error too). */
  sync(): Promise<void>;
  /** No round after this one; answers once the one under way has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `round` at once and then `pollMs` after each round ends, never two at a time, until stopped. A failing round
 * is reported through `onError` once until its message changes, so a chain that stays down does not flood the log.
 * `round` is told whether the loop was stopped, to end a long catch-up early.
 */
export function startPollLoop(round: (stopped: () => boolean) => Promise<void>, options: { pollMs: number; onError?: (error: Error) => void }): PollLoop {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tail: Promise<void> = Promise.resolve();
  let lastError = '';
  const isStopped = () => stopped;
  const once = () => {
    const run = tail.then(() => round(isStopped));
    tail = run.catch(() => undefined);
    return run;
  };
  const tick = () => {
    if (stopped) return;
    once()
      .then(() => {
        lastError = '';
      })
      .catch((error: Error) => {
        if (error.message !== lastError) options.onError?.(error);
        lastError = error.message;
      })
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, options.pollMs);
        timer.unref?.();
      });
  };
  timer = setTimeout(tick, 0);
  timer.unref?.();
  return {
    sync: once,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await tail;
    },
  };
}
