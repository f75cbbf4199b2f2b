// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Batch, Plan } from '../model/change-set.ts';
import { ApplyDialog } from './ApplyDialog.tsx';

afterEach(cleanup);

// jsdom has <dialog> but not its modal methods: open it as a browser would.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

function createBatches(count: number): Batch[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: 'create',
    operationId: 'batchCreateDnsRecords',
    keys: [`k${i}`],
    payload: { zoneName: 'example.com', records: [{ name: `h${i}`, type: 'A', rdata: '192.0.2.1', ttl: 300 }] },
  }));
}

function renderDialog(batches: Batch[], running: number | null) {
  const plan: Plan = { batches, skipped: [] };
  // The signing notice reads the service's signing domain through the query cache.
  render(
    <QueryClientProvider client={new QueryClient()}>
    <ApplyDialog
      open
      zoneName="example.com"
      plan={plan}
      signing={{ batches, notices: [], blocked: null, waiting: false }}
      describeId={(id) => id}
      running={running}
      onApply={() => undefined}
      onClose={() => undefined}
    />
    </QueryClientProvider>,
  );
}

describe('applying a change set batch by batch', () => {
  it('shows how many signatures are applied on a progress bar while it runs', () => {
    renderDialog(createBatches(5), 2);
    const bar = screen.getByRole('progressbar', { name: 'Applying the change set' });
    expect(bar.getAttribute('aria-valuenow')).toBe('2');
    expect(bar.getAttribute('aria-valuemax')).toBe('5');
    expect(bar.getAttribute('aria-valuetext')).toBe('2 of 5 signatures applied');
  });

  it('shows no progress bar before signing starts, nor for a single signature', () => {
    renderDialog(createBatches(5), null);
    expect(screen.queryByRole('progressbar')).toBeNull();
    cleanup();
    renderDialog(createBatches(1), 0);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
