import { useCallback, useEffect, useState } from 'react';
import { browserStorage as storage } from '@/lib/browser-storage.ts';
import { EMPTY_DRAFT, draftSize, type Draft } from './model/change-set.ts';
import { draftStorageKey, loadDraft, saveDraft } from './model/draft-storage.ts';


interface Held {
  key: string;
  draft: Draft;
}

/**
 * The draft once the key is `key`. After a page load the table shows before the wallet has reconnected, so
 * changes gathered meanwhile sit under the anonymous key: they belong to the account that then appears, unless
 * that account already has a draft of its own (which is never overwritten).
 */
function draftAt(held: Held, key: string, anonymousKey: string): { draft: Draft; carried: boolean } {
  if (held.key === key) return { draft: held.draft, carried: false };
  const stored = loadFrom(key);
  const carried = held.key === anonymousKey && draftSize(held.draft) > 0 && draftSize(stored) === 0;
  return { draft: carried ? held.draft : stored, carried };
}

/** The change set of one account and zone, kept in localStorage so it survives a reload. */
export function useDraft(account: string | undefined, zoneName: string): [Draft, (update: (draft: Draft) => Draft) => void] {
  const key = draftStorageKey(account, zoneName);
  const anonymousKey = draftStorageKey(undefined, zoneName);
  const [state, setState] = useState<Held>(() => ({ key, draft: loadFrom(key) }));
  const current = draftAt(state, key, anonymousKey).draft;

  const hold = useCallback(
    (prev: Held, change: (draft: Draft) => Draft = (d) => d): Held => {
      const { draft, carried } = draftAt(prev, key, anonymousKey);
      const next = change(draft);
      const store = storage();
      if (store) {
        saveDraft(store, key, next);
        if (carried) saveDraft(store, anonymousKey, EMPTY_DRAFT);
      }
      return { key, draft: next };
    },
    [key, anonymousKey],
  );

  // A different wallet or zone means a different draft.
  useEffect(() => {
    if (state.key !== key) setState((prev) => (prev.key === key ? prev : hold(prev)));
  }, [key, state.key, hold]);

  const update = useCallback((change: (draft: Draft) => Draft) => setState((prev) => hold(prev, change)), [hold]);
  return [current, update];
}

function loadFrom(key: string): Draft {
  const store = storage();
  return store ? loadDraft(store, key) : EMPTY_DRAFT;
}
