import { SIGNING_DOMAIN_VERSION } from '#core/eip712/registry.ts';
import type { Config } from '../config.ts';

/** The EIP-712 domain this service verifies with and publishes at /eip712/domain: its own name, chain-agnostic. */
export function signingDomain(config: Pick<Config, 'EIP712_DOMAIN_NAME'>): { name: string; version: string } {
  return { name: config.EIP712_DOMAIN_NAME, version: SIGNING_DOMAIN_VERSION };
}
