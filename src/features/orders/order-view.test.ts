import { describe, expect, it } from 'vitest';
import type { OrderItem } from '#core/wire/orders.ts';
import { formatUsdCents } from '@/lib/format.ts';
import { failureReason, groupByOrder, itemInWords, orderOrigin, orderTimeline, nextStepAdvice, orderSummary } from './order-view.ts';

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

describe('orderSummary', () => {
  const base = {
    order: { status: 'PROCESSING' as 'PROCESSING' | 'FAILED', amountInUSDCents: 2400, nftWalletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', nftChainId: 31337 },
    items: [{ normalizedDomainName: 'alpha.com' }],
    payments: [] as Array<{ amountInUSDCents: number; status: string }>,
  };
  it('says the names, the price and the owner in words', () => {
    expect(orderSummary({ ...base, payments: [{ amountInUSDCents: 2400, status: 'COMPLETED' }] })).toEqual({
      names: 'alpha.com',
      price: '$24.00 paid',
      owner: 'owned by 0xf3…2266 on Local chain',
    });
  });
  it('shows a lower-case owner address as wallets do, checksummed', () => {
    expect(orderSummary({ ...base, order: { ...base.order, nftWalletAddress: '0x9977bc6210a9a66f85726c01afdb2e920e1e46ab' } }).owner).toBe('owned by 0x99…46aB on Local chain');
  });
  it('says what is still to pay before the charge, and nothing paid when it ended without one', () => {
    expect(orderSummary(base).price).toBe('$24.00 to pay');
    expect(orderSummary({ ...base, order: { ...base.order, status: 'FAILED' as const } }).price).toBe('nothing paid');
  });
  it('leaves refunded charges out of what was paid, and names unknown chains by number', () => {
    const refunded = { ...base, order: { ...base.order, nftChainId: 999 }, payments: [{ amountInUSDCents: 2400, status: 'COMPLETED' }, { amountInUSDCents: 2400, status: 'REFUNDED' }] };
    expect(orderSummary(refunded)).toMatchObject({ price: '$24.00 paid', owner: 'owned by 0xf3…2266 on chain 999' });
  });
});

describe('what an order is, in words', () => {
  it('tells a registration from a renewal, with its years', () => {
    expect(itemInWords({ type: 'REGISTER', durationInYears: 1 })).toBe('registration, 1 year');
    expect(itemInWords({ type: 'RENEW', durationInYears: 3 })).toBe('renewal, 3 years');
  });

  it('says when auto-renew placed the order, and nothing for a person’s own', () => {
    expect(orderOrigin({ metadata: { autoRenew: true } })).toBe('Placed by auto-renew, paid from the owner’s credit');
    expect(orderOrigin({ metadata: null })).toBeUndefined();
    expect(orderOrigin({ metadata: { autoRenew: 'yes' } })).toBeUndefined();
  });
});
