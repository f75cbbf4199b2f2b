/**
 * What a start opened, closed in the reverse order it was opened: each part is pushed as soon as it runs, so a start
 * that fails half-way closes exactly what it started, and a stop unwinds the same stack. (AsyncDisposableStack does
 * this, but Node 20 has none.)
 */
export interface Closers {
  /** Remembers how to close what was just started; the last pushed is closed first. */
  push(name: string, close: () => Promise<void> | void): void;
  /**
   * Closes everything pushed, last first, each once: a closer that fails does not keep the others from running, and
   * the first failure is thrown once all have run. A second call answers when the first has ended.
   */
  close(): Promise<void>;
}

export function closerStack(): Closers {
  const stack: Array<{ name: string; close: () => Promise<void> | void }> = [];
  let closing: Promise<void> | null = null;
  const unwind = async () => {
    let failure: Error | null = null;
    for (let part = stack.pop(); part; part = stack.pop()) {
      try {
        await part.close();
      } catch (error) {
        failure ??= new Error(`closing ${part.name}: ${(error as Error).message}`, { cause: error });
      }
    }
    if (failure) throw failure;
  };
  return {
    push(name, close) {
      if (closing) throw new Error(`${name} started after the stop began`);
      stack.push({ name, close });
    },
    close() {
      closing ??= unwind();
      return closing;
    },
  };
}
