import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryClientStore, withQueryClient } from './query-client-loader.ts';

describe('the query cache, loaded with the first part that needs it', () => {
  it('is made once, and announced to the providers before any part waiting for it is ready', async () => {
    expect(queryClientStore.get()).toBeUndefined();
    const order: string[] = [];
    const unsubscribe = queryClientStore.subscribe(() => order.push(`announced:${queryClientStore.get() instanceof QueryClient}`));
    const part = await withQueryClient(async () => {
      order.push('part loaded');
      return 'part';
    })();
    order.push('part ready');
    expect(part).toBe('part');
    expect(order).toEqual(['part loaded', 'announced:true', 'part ready']);
    const first = queryClientStore.get();
    await withQueryClient(async () => 'another')();
    expect(queryClientStore.get()).toBe(first);
    expect(order.filter((o) => o.startsWith('announced'))).toHaveLength(1);
    unsubscribe();
  });
});
