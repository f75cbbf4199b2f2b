/**
 * Runs the functions given to it one after another, in call order, whatever each one's outcome: for a resource
 * that takes one thing at a time (PGlite's single connection, the service's chain account and its nonces).
 */
export function serialQueue(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
