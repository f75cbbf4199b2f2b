import { describe, expect, it } from 'vitest';
import type { OrderItem } from '@/core/wire/orders.ts';
import { failureReason, groupByOrder, orderTimeline, nextStepAdvice, formatUsdCents } from './order-view.ts';

function item(over: Partial<OrderItem>): OrderItem {
  return {
    id: 'i', orderId: 'o', normalizedDomainName: 'a.com', type: 'REGISTER', durationInYears: 1, amountInUSDCents: 1000,
    status: 'SUCCEEDED', metadata: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...over,
  };
}

describe('orderTimeline', () => {
  it('shows created done and the rest upcoming for a new order', () => {
    const steps = orderTimeline({ status: 'CREATED', createdAt: 't0', startedAt: null, finishedAt: null });
    expect(steps.map((s) => [s.label, s.state])).toEqual([['Created', 'done'], ['Processing', 'upcoming'], ['Result', 'upcoming']]);
  });
  it('marks processing current while it runs', () => {
    const steps = orderTimeline({ status: 'PROCESSING', createdAt: 't0', startedAt: 't1', finishedAt: null });
    expect(steps[1]).toEqual({ label: 'Processing', at: 't1', state: 'current' });
  });
  it('names the result and its time at the end', () => {
    const steps = orderTimeline({ status: 'FAILED', createdAt: 't0', startedAt: 't1', finishedAt: 't2' });
    expect(steps[2]).toEqual({ label: 'Failed', at: 't2', state: 'done' });
  });
});

describe('failureReason', () => {
  it('reads a string or a message object, and nothing otherwise', () => {
    expect(failureReason({ metadata: { failureDetails: 'Registry refused the name' } })).toBe('Registry refused the name');
    expect(failureReason({ metadata: { failureDetails: { message: 'Timeout at registry' } } })).toBe('Timeout at registry');
    expect(failureReason({ metadata: { failureDetails: { code: 7 } } })).toBe('{"code":7}');
    expect(failureReason({ metadata: null })).toBeUndefined();
    expect(failureReason({ metadata: {} })).toBeUndefined();
  });
});

describe('groupByOrder', () => {
  it('groups items by order, newest order first, totals the amount', () => {
    const groups = groupByOrder([
      item({ id: '1', orderId: 'new', createdAt: '2026-02-01T00:00:00.000Z', amountInUSDCents: 500 }),
      item({ id: '2', orderId: 'old', createdAt: '2026-01-01T00:00:00.000Z' }),
      item({ id: '3', orderId: 'new', createdAt: '2026-02-01T00:00:00.000Z', amountInUSDCents: 700 }),
    ]);
    expect(groups.map((g) => [g.orderId, g.items.map((i) => i.id), g.amountInUSDCents])).toEqual([
      ['new', ['1', '3'], 1200],
      ['old', ['2'], 1000],
    ]);
  });
  it('shows a group as still running while any item runs, partial when results differ', () => {
    expect(groupByOrder([item({ id: '1' }), item({ id: '2', status: 'PROCESSING' })])[0].status).toBe('PROCESSING');
    expect(groupByOrder([item({ id: '1' }), item({ id: '2', status: 'FAILED' })])[0].status).toBe('PARTIALLY_COMPLETED');
  });
});

describe('words', () => {
  it('advises after a failure, not after success', () => {
    expect(nextStepAdvice('FAILED')).toMatch(/refunded/);
    expect(nextStepAdvice('SUCCEEDED')).toBeUndefined();
  });
  it('formats cents as dollars', () => {
    expect(formatUsdCents(2500)).toBe('$25.00');
  });
});
