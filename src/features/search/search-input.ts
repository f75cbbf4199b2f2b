import { useEffect, useState } from 'react';
import { parseDomainName, type DomainNameResult } from '#core/names/index.ts';
import { toALabels } from '#core/names/idna.ts';

const SEARCH_DEBOUNCE_MS = 300;

export type ExactTarget =
  | { kind: 'empty' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'name'; name: string; typed?: string };

/**
 * A domain name as typed, with a Unicode name first written as its A-labels (core/names/idna.ts), so what is
 * asked about, bought and signed is the xn-- form; `typed` keeps the Unicode form to show beside it.
 */
export function parseTypedDomain(input: string): DomainNameResult & { typed?: string } {
  const converted = toALabels(input);
  const parsed = parseDomainName(converted.ok ? converted.ascii : pastedHost(input));
  return parsed.ok && (!converted.ok || converted.converted) ? { ...parsed, typed: input.trim() } : parsed;
}

/** The host of a pasted web address (https://www.bücher.de/x), which the URL parser writes in A-labels. */
function pastedHost(input: string): string {
  if (!input.includes('://')) return input;
  try {
    return new URL(input.trim()).hostname || input;
  } catch {
    return input;
  }
}

/** What the exact-name check should ask about: nothing, a reason instead of a request, or one valid name. */
export function exactTarget(input: string): ExactTarget {
  if (input.trim() === '') return { kind: 'empty' };
  const parsed = parseTypedDomain(input);
  if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
  return parsed.typed ? { kind: 'name', name: parsed.name, typed: parsed.typed } : { kind: 'name', name: parsed.name };
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
