import { useCallback, useEffect, useState } from 'react';
import { EMPTY_DRAFT, type Draft } from './model/change-set.ts';
import { draftStorageKey, loadDraft, saveDraft } from './model/draft-storage.ts';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The change set of one account and zone, kept in localStorage so it survives a reload. */
export function useDraft(account: string | undefined, zoneName: string): [Draft, (update: (draft: Draft) => Draft) => void] {
  const key = draftStorageKey(account, zoneName);
  const [state, setState] = useState<{ key: string; draft: Draft }>(() => ({ key, draft: loadFrom(key) }));
  // A different wallet or zone means a different draft.
  const current = state.key === key ? state.draft : loadFrom(key);
  useEffect(() => {
    if (state.key !== key) setState({ key, draft: loadFrom(key) });
  }, [key, state.key]);
  const update = useCallback(
    (change: (draft: Draft) => Draft) => {
      setState((prev) => {
        const base = prev.key === key ? prev.draft : loadFrom(key);
        const next = change(base);
        const store = storage();
        if (store) saveDraft(store, key, next);
        return { key, draft: next };
      });
    },
    [key],
  );
  return [current, update];
}

function loadFrom(key: string): Draft {
  const store = storage();
  return store ? loadDraft(store, key) : EMPTY_DRAFT;
}
