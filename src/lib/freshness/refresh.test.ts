import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.ts';
import { accountFactKey, domainFactKey } from '../query-keys.ts';
import { writeThenRefresh } from './refresh.ts';

/**
 * The one door every dashboard write goes through (useSignedCall, useApi): which writes make the page read again what
 * they would have changed. Here a parked domain's records, shown by one mounted view that counts its reads.
 */
const DOMAIN = 'parked.test';
let stop: (() => void) | undefined;
afterEach(() => stop?.());

async function recordsView() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  let reads = 0;
  const observer = new QueryObserver(queryClient, { queryKey: domainFactKey(DOMAIN, 'records'), queryFn: () => ++reads });
  stop = observer.subscribe(() => undefined);
  await queryClient.refetchQueries();
  return { queryClient, reads: () => reads };
}

const refused = (status: number) => new ApiError({ status, code: status === 0 ? 'network' : 'conflict', message: 'no' });

describe('writeThenRefresh', () => {
  it('reads the records again before a write the service accepted resolves', async () => {
    const view = await recordsView();
    const answer = await writeThenRefresh(view.queryClient, 'parkDomain', { normalizedDomainName: DOMAIN }, async () => 'parked');
    expect(answer).toBe('parked');
    expect(view.reads()).toBe(2);
  });

  it('reads them again when the write found the service away (status 0), and still throws its error', async () => {
    const view = await recordsView();
    await expect(writeThenRefresh(view.queryClient, 'parkDomain', { normalizedDomainName: DOMAIN }, () => Promise.reject(refused(0)))).rejects.toMatchObject({ status: 0 });
    await expect.poll(view.reads).toBe(2);
  });

  it('reads nothing again for a write the service refused: it changed nothing', async () => {
    const view = await recordsView();
    await expect(writeThenRefresh(view.queryClient, 'parkDomain', { normalizedDomainName: DOMAIN }, () => Promise.reject(refused(409)))).rejects.toMatchObject({ status: 409 });
    await view.queryClient.cancelQueries();
    expect(view.queryClient.isFetching()).toBe(0);
    expect(view.reads()).toBe(1);
  });

  it("shows what the write made when the view's first read was still on its way: that read may have been answered before", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    let keys = ['old'];
    let answerFirst: (() => void) | undefined;
    const observer = new QueryObserver(queryClient, {
      queryKey: accountFactKey('0xabc', 'api-keys'),
      // The first read is answered as the service held it when it arrived, and reaches the page only later.
      queryFn: () => {
        const held = [...keys];
        return answerFirst ? held : new Promise<string[]>((resolve) => (answerFirst = () => resolve(held)));
      },
    });
    stop = observer.subscribe(() => undefined);
    await expect.poll(() => answerFirst).toBeDefined();
    await writeThenRefresh(queryClient, 'createApiKey', { label: 'k' }, async () => (keys = ['old', 'new']));
    answerFirst?.();
    await expect.poll(() => observer.getCurrentResult().data).toEqual(['old', 'new']);
  });
});
