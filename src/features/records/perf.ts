/**
 * Performance entries for `npm run bench:records`: from the records landing in the query cache to the
 * table showing them ('records:first-render'), and from a search keystroke to its rows being in the DOM
 * ('records:search'). Called only when the dashboard is built with `VITE_BENCH_MARKS=true`, as bench:records
 * builds it; in any other build the calls are constant-false branches and this module is left out of the bundle.
 */
const hasPerf = typeof performance !== 'undefined' && typeof performance.measure === 'function';
let measuredFirst = false;
let awaitingSearch = false;

export function markSearchInput(): void {
  if (!hasPerf) return;
  performance.clearMarks('records:search-input');
  performance.mark('records:search-input');
  awaitingSearch = true;
}

/**
 * Called from the records page's layout effect, i.e. once the table's rows are in the DOM. `dataUpdatedAt`
 * is when the records reached the cache (epoch ms, as TanStack Query records it).
 */
export function markTableRendered(count: number, dataUpdatedAt: number): void {
  if (!hasPerf) return;
  if (!measuredFirst && count > 0 && dataUpdatedAt > 0) {
    measuredFirst = true;
    performance.mark('records:rendered');
    const start = Math.max(0, dataUpdatedAt - performance.timeOrigin);
    performance.measure('records:first-render', { start, end: performance.now() });
  }
  if (awaitingSearch) {
    awaitingSearch = false;
    performance.mark('records:search-rendered');
    performance.measure('records:search', 'records:search-input', 'records:search-rendered');
  }
}
