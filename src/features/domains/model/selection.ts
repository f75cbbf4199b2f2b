/**
 * Selecting many domains: a click toggles one; a shift-click sets every row between the last clicked and this one
 * (in the order shown) to this row's new state, as in a file manager; "all that match" selects the rows shown.
 */
export interface Selection {
  selected: ReadonlySet<string>;
  /** The row last clicked without shift: the anchor of a range. */
  anchor: string | null;
}

export const emptySelection: Selection = { selected: new Set(), anchor: null };

export function clickRow(selection: Selection, shown: readonly string[], name: string, shift: boolean): Selection {
  const next = new Set(selection.selected);
  const on = !selection.selected.has(name);
  const from = selection.anchor === null ? -1 : shown.indexOf(selection.anchor);
  const to = shown.indexOf(name);
  if (shift && from >= 0 && to >= 0) {
    const [start, end] = from < to ? [from, to] : [to, from];
    for (const row of shown.slice(start, end + 1)) {
      if (on) next.add(row);
      else next.delete(row);
    }
    return { selected: next, anchor: selection.anchor };
  }
  if (on) next.add(name);
  else next.delete(name);
  return { selected: next, anchor: name };
}

export function selectAll(selection: Selection, shown: readonly string[]): Selection {
  return { selected: new Set([...selection.selected, ...shown]), anchor: selection.anchor };
}

/** Keeps only names still listed (a domain transferred away leaves the selection). */
export function keepListed(selection: Selection, listed: readonly string[]): Selection {
  const set = new Set(listed);
  const kept = [...selection.selected].filter((n) => set.has(n));
  return kept.length === selection.selected.size ? selection : { selected: new Set(kept), anchor: selection.anchor && set.has(selection.anchor) ? selection.anchor : null };
}
