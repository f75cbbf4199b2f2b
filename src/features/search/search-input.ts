import { useEffect, useState } from 'react';
import { parseDomainName } from '@/core/names/index.ts';

export const SEARCH_DEBOUNCE_MS = 300;

export type ExactTarget =
  | { kind: 'empty' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'name'; name: string };

/** What the exact-name check should ask about: nothing, a reason instead of a request, or one valid name. */
export function exactTarget(input: string): ExactTarget {
  if (input.trim() === '') return { kind: 'empty' };
  const parsed = parseDomainName(input);
  return parsed.ok ? { kind: 'name', name: parsed.name } : { kind: 'invalid', reason: parsed.reason };
}

/**
 * The text suggestions are asked for: the typed words, trimmed and lowercased, when they hold at least one
 * letter or digit (the service turns "My Shop" into my-shop itself); undefined means ask nothing.
 */
export function suggestionsQueryText(input: string): string | undefined {
  const text = input.trim().toLowerCase().slice(0, 253);
  return /[a-z0-9]/.test(text) ? text : undefined;
}

/** The value once it has stopped changing for `delayMs`: typing fast asks the service once, not per key. */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}
