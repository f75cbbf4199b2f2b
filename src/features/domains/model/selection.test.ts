import { describe, expect, it } from 'vitest';
import { clickRow, emptySelection, keepListed, selectAll } from './selection.ts';

const shown = ['a.com', 'b.com', 'c.com', 'd.com', 'e.com'];
const names = (s: { selected: ReadonlySet<string> }) => [...s.selected].sort();

describe('selecting domains', () => {
  it('a click toggles one row', () => {
    const one = clickRow(emptySelection, shown, 'b.com', false);
    expect(names(one)).toEqual(['b.com']);
    expect(names(clickRow(one, shown, 'b.com', false))).toEqual([]);
  });

  it('shift-click selects the range from the last clicked row, either direction', () => {
    const anchored = clickRow(emptySelection, shown, 'b.com', false);
    expect(names(clickRow(anchored, shown, 'd.com', true))).toEqual(['b.com', 'c.com', 'd.com']);
    const up = clickRow(clickRow(emptySelection, shown, 'e.com', false), shown, 'c.com', true);
    expect(names(up)).toEqual(['c.com', 'd.com', 'e.com']);
  });

  it('shift-click on a selected row clears the range', () => {
    const all = selectAll(emptySelection, shown);
    const anchored = clickRow(all, shown, 'a.com', false); // a.com off, anchor a.com
    expect(names(clickRow(anchored, shown, 'c.com', true))).toEqual(['d.com', 'e.com']);
  });

  it('select all that match adds the rows shown; rows that leave the list leave the selection', () => {
    const some = selectAll(clickRow(emptySelection, shown, 'a.com', false), ['c.com', 'd.com']);
    expect(names(some)).toEqual(['a.com', 'c.com', 'd.com']);
    expect(names(keepListed(some, ['a.com', 'd.com']))).toEqual(['a.com', 'd.com']);
  });
});
