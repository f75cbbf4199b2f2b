import type { SigningDomain } from '#core/wire/eip712.ts';

/**
 * The signing domain in words, as the notice says it before the wallet opens: the wallet shows the same name, and
 * a signature made for one service (a local copy, production) is good for that one only.
 */
export function signingDomainLine(domain: SigningDomain): string {
  const chain = domain.chainId === undefined ? '' : `, chain ${domain.chainId}`;
  return `Signed for ${domain.name}, version ${domain.version}${chain}: the signature is good for this service only.`;
}
