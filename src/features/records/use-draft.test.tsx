// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useDraft } from './use-draft.ts';
import { draftStorageKey } from './model/draft-storage.ts';

const zone = 'example.com';
const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const deleteC = (draft: { creates: never[]; updates: never[]; deletes: unknown[] }) => ({ ...draft, deletes: [...draft.deletes, { key: 'k2', id: 'c' }] });

afterEach(() => localStorage.clear());

describe('useDraft', () => {
  it('keeps a change made before the wallet reconnected once the account appears', () => {
    const { result, rerender } = renderHook(({ account }) => useDraft(account, zone), { initialProps: { account: undefined as string | undefined } });
    act(() => result.current[1](deleteC as never));
    rerender({ account: owner });
    expect(result.current[0].deletes.map((d) => d.id)).toEqual(['c']);
    expect(localStorage.getItem(draftStorageKey(owner, zone))).toContain('"c"');
    expect(localStorage.getItem(draftStorageKey(undefined, zone))).toBeNull();
  });

  it('never overwrites the draft an account already has', () => {
    localStorage.setItem(draftStorageKey(owner, zone), JSON.stringify({ creates: [], updates: [], deletes: [{ key: 'k1', id: 'kept' }] }));
    const { result, rerender } = renderHook(({ account }) => useDraft(account, zone), { initialProps: { account: undefined as string | undefined } });
    act(() => result.current[1](deleteC as never));
    rerender({ account: owner });
    expect(result.current[0].deletes.map((d) => d.id)).toEqual(['kept']);
  });
});
