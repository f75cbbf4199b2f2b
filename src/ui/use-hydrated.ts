import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates markup the build pre-rendered (and in that pre-render), true from the render after:
 * a control the pre-rendered page shows inert (a read-only field, so typing waits for a field that listens) comes
 * alive without the first client render differing from the markup it hydrates.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
