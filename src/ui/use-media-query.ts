import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's `sm` breakpoint: below it the layout is the phone's. */
export const PHONE_QUERY = '(max-width: 639.98px)';

/** Whether a CSS media query matches now, following changes. Without matchMedia (jsdom, old engines) it never matches. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = () => typeof window !== 'undefined' && Boolean(window.matchMedia?.(query).matches);
  return useSyncExternalStore(subscribe, read, () => false);
}
