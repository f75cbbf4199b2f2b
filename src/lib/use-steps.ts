import { useEffect, useState, type DependencyList } from 'react';

export interface Stepping<P, R> {
  /** The last progress the work reported, while it runs. */
  progress?: P;
  /** What the work answered, once done. */
  result?: R;
}

/**
 * Runs long work written as a generator (it yields progress now and then) a step at a time, letting the browser paint
 * between steps, so a progress bar can move while 100,000 records are read or written. The first step runs at once;
 * the work starts again when `deps` change, and stops when the component unmounts. `start` answers null for no work.
 */
export function useSteps<P, R>(start: () => Generator<P, R> | null, deps: DependencyList): Stepping<P, R> {
  const [state, setState] = useState<Stepping<P, R>>({});
  useEffect(() => {
    const steps = start();
    if (!steps) {
      setState({});
      return;
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = () => {
      const next = steps.next();
      if (stopped) return;
      if (next.done) setState({ result: next.value });
      else {
        setState({ progress: next.value });
        timer = setTimeout(step, 0);
      }
    };
    step();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what the work depends on
  }, deps);
  return state;
}
