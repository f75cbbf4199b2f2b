import { draftSchema, EMPTY_DRAFT, draftSize, type Draft } from './change-set.ts';

/** One draft per account and zone: a change set started by one wallet never shows up for another. */
export function draftStorageKey(account: string | undefined, zoneName: string): string {
  return `namefi.records.draft.v1:${(account ?? 'anonymous').toLowerCase()}:${zoneName}`;
}

export function loadDraft(storage: Pick<Storage, 'getItem'>, key: string): Draft {
  try {
    const text = storage.getItem(key);
    if (!text) return EMPTY_DRAFT;
    const parsed = draftSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : EMPTY_DRAFT;
  } catch {
    // Unreadable storage (private mode, a corrupt value) means no draft, never a broken page.
    return EMPTY_DRAFT;
  }
}

export function saveDraft(storage: Pick<Storage, 'setItem' | 'removeItem'>, key: string, draft: Draft): void {
  try {
    if (draftSize(draft) === 0) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(draft));
  } catch {
    // A full or blocked storage only loses persistence across reloads; the draft still lives in memory.
  }
}
