// @vitest-environment jsdom
import { afterEach, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import type { OrderDetails } from '#core/wire/orders.ts';
import { orderFollower, useFollowOrder } from './order-follower.ts';

const ALICE = '0xAbC0000000000000000000000000000000000001';
const BOB = '0xbbb0000000000000000000000000000000000002';

function processing(id: string): OrderDetails {
  const t = new Date().toISOString();
  return {
    order: { id, status: 'PROCESSING', amountInUSDCents: 1000, nftWalletAddress: ALICE, nftChainId: 31337, metadata: null, createdAt: t, updatedAt: t, startedAt: t, finishedAt: null },
    items: [{ id: `${id}-i`, orderId: id, normalizedDomainName: 'alice.com', type: 'REGISTER', durationInYears: 1, amountInUSDCents: 1000, status: 'PROCESSING', metadata: null, createdAt: t, updatedAt: t }],
    payments: [],
  };
}

let disconnect = () => {};
afterEach(() => disconnect());

it("shows an order page only the order of the account it reads as, even before the follower hears of a switch", async () => {
  disconnect = orderFollower.connect({ account: ALICE }, { fetchOrder: async (id) => processing(id), refresh: () => {}, toast: () => {} });
  const { result, rerender } = renderHook(({ account }) => useFollowOrder('order-1', account), { initialProps: { account: ALICE } });
  await waitFor(() => expect(result.current?.details?.order.id).toBe('order-1'));
  // The page now reads as Bob; the follower still reads as Alice until the layout's effect reconnects it.
  rerender({ account: BOB });
  expect(result.current).toBeUndefined();
  rerender({ account: ALICE.toLowerCase() });
  expect(result.current?.details?.items[0]?.normalizedDomainName).toBe('alice.com');
});
