// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { BulkBar } from './BulkBar.tsx';

const noop = () => undefined;
const bar = (count: number, clearedBecause: string | null) => (
  <BulkBar count={count} shown={3} clearedBecause={clearedBecause} notes onSelectShown={noop} onClear={noop} onTtl={noop} onAddTag={() => null} onRemoveTag={noop} onDelete={noop} />
);

afterEach(cleanup);

describe('BulkBar', () => {
  it('says, in its polite status, that the selection was cleared on purpose and why', () => {
    render(bar(0, 'Selection cleared: the tags changed, in the change set to review'));
    expect(screen.getByRole('status').textContent).toBe('No record selected. Selection cleared: the tags changed, in the change set to review.');
    expect(screen.getByRole('button', { name: 'Select all 3 shown' })).toBeTruthy();
  });

  it('says nothing more when nothing was selected, or once records are selected', () => {
    render(bar(0, null));
    expect(screen.getByRole('status').textContent).toBe('No record selected');
    cleanup();
    render(bar(2, null));
    expect(screen.getByRole('status').textContent).toBe('2 records selected');
  });
});
