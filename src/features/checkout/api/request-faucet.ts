import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Balance, FaucetResult } from '#core/wire/user.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { balanceKey } from '@/features/balance/index.ts';

const STARTED_POLL_MS = 3_000;
const STARTED_MAX_POLLS = 10;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST /user/faucet, then a fresh balance. The local faucet credits before it answers ("completed");
 * production answers "started" and credits later, so the balance is re-read until it changes.
 */
export function useRequestFaucet(account: string | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<FaucetResult> => {
      const before = queryClient.getQueryData<Balance>(balanceKey(account))?.totalBalanceInUsdCents;
      const result = await api.call('requestFaucet', { body: account ? { walletAddress: account } : {} });
      if (result.status === 'completed') {
        await queryClient.invalidateQueries({ queryKey: balanceKey(account) });
        return result;
      }
      for (let poll = 0; poll < STARTED_MAX_POLLS; poll++) {
        await sleep(STARTED_POLL_MS);
        await queryClient.invalidateQueries({ queryKey: balanceKey(account) });
        const after = queryClient.getQueryData<Balance>(balanceKey(account))?.totalBalanceInUsdCents;
        if (after !== before) break;
      }
      return result;
    },
  });
}
