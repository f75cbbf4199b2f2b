import type { DomainToken } from '../ownership/ownership.ts';
import type { Queryable } from '../db/database.ts';
import type { Principal, Services } from '../services.ts';
import { forbidden, notFound, unauthorized } from '../domain-errors.ts';

/** 404 for a domain nobody owns, 403 for another wallet's: the contract's ownership check for every DNS and parking write. */
export async function requireOwnedDomain(services: Pick<Services, 'ownership'>, q: Queryable, domain: string, principal: Principal | null): Promise<DomainToken> {
  if (!principal) throw unauthorized();
  const token = await services.ownership.ownerOf(domain, q);
  if (!token) throw notFound(`No domain ${domain} is registered here`);
  if (token.owner.toLowerCase() !== principal.wallet.toLowerCase()) {
    throw forbidden(`The wallet ${principal.wallet} does not own ${domain}`, { domain, owner: token.owner });
  }
  return token;
}

/** 404 unless someone owns the domain: reads of a zone or its parking state. */
export async function requireRegisteredDomain(services: Pick<Services, 'ownership'>, q: Queryable, domain: string): Promise<DomainToken> {
  const token = await services.ownership.ownerOf(domain, q);
  if (!token) throw notFound(`No domain ${domain} is registered here`);
  return token;
}
