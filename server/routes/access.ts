import type { GrantZoneAccessInput, RevokeZoneAccessInput } from '#core/wire/access.ts';
import { grantsThatAct, requireGranteeSignature, requireKeyReach } from '../access/authorise.ts';
import { grantFor, wireGrant, zoneGrants } from '../access/grants.ts';
import { requireRegisteredDomain } from '../dns/domain-access.ts';
import { forbidden, unauthorized } from '../domain-errors.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { grantCommand, revokeCommand } from '../zones/access.ts';
import { changeZone } from '../zones/pipeline.ts';

/** Access (contract: Access): grants of a zone to other wallets. Who may grant and revoke is the pipeline's to check. */
export const accessHandlers: Handlers = {
  grantZoneAccess: ({ input, principal, services, operationId }: RequestContext<GrantZoneAccessInput>) =>
    changeZone(services, {
      zoneName: input.zoneName,
      by: { principal, operation: operationId },
      command: grantCommand(input, { wallet: principal?.wallet ?? '', signed: principal?.signed }),
    }),

  async revokeZoneAccess({ input, principal, services, operationId }: RequestContext<RevokeZoneAccessInput>) {
    const token = await requireRegisteredDomain(services, services.db, input.zoneName);
    const wallet = principal?.wallet ?? '';
    const owner = token.owner.toLowerCase() === wallet.toLowerCase();
    return changeZone(services, { zoneName: input.zoneName, by: { principal, operation: operationId, grantId: input.grantId }, command: revokeCommand(input.grantId, { wallet, owner }) });
  },

  async listZoneAccess({ input, principal, services }: RequestContext<{ zoneName: string }>) {
    if (!principal) throw unauthorized();
    const token = await requireRegisteredDomain(services, services.db, input.zoneName);
    requireKeyReach(principal, input.zoneName);
    if (token.owner.toLowerCase() === principal.wallet.toLowerCase()) return (await zoneGrants(services.db, input.zoneName)).map(wireGrant);
    const own = await grantFor(services.db, input.zoneName, principal.wallet, services.now());
    if (!own) throw forbidden(`The wallet ${principal.wallet} neither owns ${input.zoneName} nor holds a grant for it`, { domain: input.zoneName });
    requireGranteeSignature(principal, own, input.zoneName);
    return (await zoneGrants(services.db, input.zoneName, principal.wallet)).map(wireGrant);
  },

  async getSharedDomains({ principal, services }) {
    if (!principal) throw unauthorized();
    const grants = await grantsThatAct(services, services.db, principal.wallet, services.now());
    return grants.map((g) => ({ normalizedDomainName: g.zoneName, role: g.role, names: g.names, types: g.types, expiresAt: g.expiresAt, grantedBy: g.grantedBy }));
  },
};
