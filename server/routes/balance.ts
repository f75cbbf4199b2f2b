import type { Handlers } from '../http/context.ts';
import { forbidden, unauthorized } from '../domain-errors.ts';
import { CREDIT_CHAIN_ID } from '../balance/credit.ts';
import { grantFaucet } from '../balance/faucet.ts';

export const balanceHandlers: Handlers = {
  getBalance: async ({ principal, services }) => {
    if (!principal) throw unauthorized();
    const cents = await services.credit.balanceCents(principal.wallet);
    return {
      balances: [{ chainId: CREDIT_CHAIN_ID, walletAddress: principal.wallet, balanceInUsdCents: cents }],
      totalBalanceInUsdCents: cents,
    };
  },
  requestFaucet: async ({ input, principal, services }) => {
    if (!principal) throw unauthorized();
    if (!services.config.FAUCET_ENABLED) throw forbidden('The faucet is turned off on this service');
    return grantFaucet(services.db, services.credit, input.walletAddress ?? principal.wallet, {
      cooldownSeconds: services.config.FAUCET_COOLDOWN_S,
      now: services.now(),
      usd: services.x402?.usd,
    });
  },
};
