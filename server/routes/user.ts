import type { Handlers } from '../http/context.ts';
import type { Queryable } from '../db/database.ts';
import type { Services } from '../services.ts';
import { expiryState } from '#core/expiry.ts';
import { expiryPolicy } from '../zones/expiry.ts';
import type { UserDomain } from '#core/wire/user.ts';
import { unauthorized } from '../domain-errors.ts';
import { itemsOfWallet } from '../orders/repository.ts';
import { ownersAutoRenew } from '../renewal/auto-renew-store.ts';

export const userHandlers: Handlers = {
  getUserOrders: ({ principal, services }) => {
    if (!principal) throw unauthorized();
    return itemsOfWallet(services.db, principal.wallet);
  },
  getUserDomains: ({ principal, services }) => {
    if (!principal) throw unauthorized();
    return userDomains(services, principal.wallet);
  },
};

/**
 * The wallet's domains with their DNS status: one query for every domain's flags, however many it owns.
 * Web records are an apex or www address/CNAME, or parking or forwarding (which serve a page or a redirect).
 * A zone is signed (DNSSEC) while it has a key.
 */
async function userDomains(services: Pick<Services, 'db' | 'ownership' | 'config' | 'now'>, wallet: string): Promise<UserDomain[]> {
  const q: Queryable = services.db;
  const now = services.now();
  const policy = expiryPolicy(services.config);
  // A domain past redemption is released within moments by the expiry worker: it is no longer the wallet's.
  const tokens = (await services.ownership.domainsOf(wallet)).filter((t) => expiryState(t.expiresAt, now, policy).status !== 'released');
  if (tokens.length === 0) return [];
  const names = tokens.map((t) => t.name);
  const rows = await q.query<{ name: string; parked: boolean; forward_enabled: boolean; record_count: number; created_at: Date | string; web: boolean; mx: boolean; dnssec: boolean }>(
    `SELECT d.name, d.parked, d.forward_enabled, d.record_count, d.created_at,
       EXISTS (SELECT 1 FROM dns_records r WHERE r.zone_name = d.name AND r.name IN ('@', 'www') AND r.type IN ('A', 'AAAA', 'CNAME')) AS web,
       EXISTS (SELECT 1 FROM dns_records r WHERE r.zone_name = d.name AND r.type = 'MX') AS mx,
       EXISTS (SELECT 1 FROM dnssec_keys k WHERE k.zone_name = d.name) AS dnssec
     FROM domains d WHERE d.name = ANY($1)`,
    [names],
  );
  const flags = new Map(rows.map((r) => [r.name, r]));
  // Auto-renew by the rule getAutoRenew reads it with: the setting of the owner `ownership` answers, not the mirror's.
  const autoRenew = await ownersAutoRenew(q, tokens);
  return tokens.map((t) => {
    const f = flags.get(t.name);
    const setting = autoRenew.get(t.name);
    const renews = setting?.enabled ?? false;
    const parked = f?.parked ?? false;
    const forwarding = f?.forward_enabled ?? false;
    const life = expiryState(t.expiresAt, now, policy);
    return {
      normalizedDomainName: t.name,
      chainId: t.chainId,
      ownerAddress: t.owner,
      tokenId: t.tokenId,
      expirationDate: t.expiresAt.toISOString(),
      dnsStatus: { isParkingEnabled: parked, hasWebRecords: parked || forwarding || (f?.web ?? false), hasMxRecords: f?.mx ?? false, isForwardingEnabled: forwarding, isDnssecEnabled: f?.dnssec ?? false },
      registry: services.ownership.registry,
      ...(f ? { recordCount: Number(f.record_count), registeredAt: new Date(f.created_at).toISOString(), autoRenewShortOfCredit: renews && setting?.last_attempt_outcome === 'short-of-credit' } : {}),
      status: life.status === 'released' ? 'redemption' : life.status,
      graceEndsAt: life.graceEndsAt.toISOString(),
      redemptionEndsAt: life.redemptionEndsAt.toISOString(),
      autoRenew: renews,
    };
  });
}
