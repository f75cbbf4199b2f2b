import { describe, expect, it } from 'vitest';
import type { CreatedOrder } from '#core/wire/orders.ts';
import { detailsFromCreated } from './order-seed.ts';

const t0 = '2026-01-01T00:00:00.000Z';
const created: CreatedOrder = {
  id: 'o1', status: 'CREATED', amountInUSDCents: 2400, nftWalletAddress: '0x0000000000000000000000000000000000000001', nftChainId: 31337,
  metadata: null, createdAt: t0, updatedAt: t0, startedAt: null, finishedAt: null,
  items: [{ id: 'i1', orderId: 'o1', normalizedDomainName: 'shop.com', type: 'REGISTER', durationInYears: 2, amountInUSDCents: 2400, status: 'CREATED', metadata: null, createdAt: t0, updatedAt: t0 }],
};

describe('detailsFromCreated', () => {
  it('turns a just-created order into the order page’s answer, with nothing charged yet', () => {
    const details = detailsFromCreated(created);
    expect(details?.order).toEqual({
      id: 'o1', status: 'CREATED', amountInUSDCents: 2400, nftWalletAddress: created.nftWalletAddress, nftChainId: 31337,
      metadata: null, createdAt: t0, updatedAt: t0, startedAt: null, finishedAt: null,
    });
    expect(details?.items).toEqual(created.items);
    expect(details?.payments).toEqual([]);
  });

  it('leaves an order that already moved on to be read from the service', () => {
    expect(detailsFromCreated({ ...created, status: 'PROCESSING', startedAt: t0 })).toBeUndefined();
    expect(detailsFromCreated({ ...created, status: 'FAILED', finishedAt: t0 })).toBeUndefined();
  });
});
