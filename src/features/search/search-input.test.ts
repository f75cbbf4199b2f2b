// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { exactTarget, suggestionsQueryText, useDebouncedValue } from './search-input.ts';

describe('exactTarget', () => {
  it('asks about a valid name in its normal form', () => {
    expect(exactTarget('  Example.COM ')).toEqual({ kind: 'name', name: 'example.com' });
    expect(exactTarget('https://www.shop.io/path')).toEqual({ kind: 'name', name: 'shop.io' });
  });
  it('gives a reason instead of a request for an invalid name', () => {
    const missingEnding = exactTarget('coffee');
    expect(missingEnding.kind).toBe('invalid');
    expect(missingEnding).toMatchObject({ reason: expect.stringMatching(/ending/) });
    expect(exactTarget('-bad-.com')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/hyphen/) });
    expect(exactTarget('a b.com')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/spaces/) });
  });
  it('asks about a Unicode name as its A-label, keeping the typed form to show beside it', () => {
    expect(exactTarget(' bücher.de ')).toEqual({ kind: 'name', name: 'xn--bcher-kva.de', typed: 'bücher.de' });
    expect(exactTarget('MÜNCHEN.shop')).toEqual({ kind: 'name', name: 'xn--mnchen-3ya.shop', typed: 'MÜNCHEN.shop' });
    expect(exactTarget('https://www.bücher.de/x')).toEqual({ kind: 'name', name: 'xn--bcher-kva.de', typed: 'https://www.bücher.de/x' });
    expect(exactTarget('xn--bcher-kva.de')).toEqual({ kind: 'name', name: 'xn--bcher-kva.de' });
  });
  it('asks nothing for an empty box', () => {
    expect(exactTarget('   ')).toEqual({ kind: 'empty' });
  });
});

describe('suggestionsQueryText', () => {
  it('keeps words with letters or digits, lowercased', () => {
    expect(suggestionsQueryText(' Coffee Shop ')).toBe('coffee shop');
    expect(suggestionsQueryText('---')).toBeUndefined();
    expect(suggestionsQueryText('')).toBeUndefined();
  });
});

describe('useDebouncedValue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles 300 ms after the last change, skipping intermediate values', () => {
    const seen: string[] = [];
    const { result, rerender } = renderHook(({ value }) => {
      const settled = useDebouncedValue(value, 300);
      seen.push(settled);
      return settled;
    }, { initialProps: { value: 'e' } });
    rerender({ value: 'ex' });
    act(() => vi.advanceTimersByTime(200));
    rerender({ value: 'exa' });
    act(() => vi.advanceTimersByTime(299));
    expect(result.current).toBe('e');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('exa');
    expect(new Set(seen)).toEqual(new Set(['e', 'exa']));
  });
});
