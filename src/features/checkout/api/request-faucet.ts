import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Balance, FaucetResult } from '#core/wire/user.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { refreshAfterWrite } from '@/lib/freshness/refresh.ts';
import { balanceKey } from '@/features/balance/index.ts';

const STARTED_POLL_MS = 3_000;
const STARTED_MAX_POLLS = 10;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST /user/faucet; the API client's refresh rule reads the balance again after it. The local faucet credits before
 * it answers ("completed"); production answers "started" and credits later, so the write's facts are read again until
 * the balance changes.
 */
export function useRequestFaucet(account: string | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<FaucetResult> => {
      const before = queryClient.getQueryData<Balance>(balanceKey(account))?.totalBalanceInUsdCents;
      const result = await api.call('requestFaucet', { body: account ? { walletAddress: account } : {} });
      if (result.status === 'completed') return result;
      for (let poll = 0; poll < STARTED_MAX_POLLS; poll++) {
        await sleep(STARTED_POLL_MS);
        await refreshAfterWrite(queryClient, 'requestFaucet', {});
        const after = queryClient.getQueryData<Balance>(balanceKey(account))?.totalBalanceInUsdCents;
        if (after !== before) break;
      }
      return result;
    },
  });
}
