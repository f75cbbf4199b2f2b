import type { Address, Hex } from 'viem';
import type { ChainClients } from './client.ts';
import { bytecodeOf } from './contracts.ts';

/**
 * Brings the registry of a local chain kept from an older version up to the current contract's code, its storage
 * (every token, name and expiry) untouched. The registry has gained functions since it was first deployed
 * (`setExpiry` for renewals, `burn` for released names) but never state, so the new code reads the old storage as
 * its own. Only for the anvil this service runs (`anvil_setCode`): a chain it merely connects to is left alone.
 * Answers whether the code was replaced.
 */
export async function upgradeRegistryCode(clients: ChainClients, registry: Address): Promise<boolean> {
  // The creation code run as a call (from the service, as when deployed) answers the runtime code: the constructor
  // stores its owner, nothing is immutable, so the code does not depend on who deployed it.
  const { data: current } = await clients.public.call({ account: clients.wallet.account, data: bytecodeOf('DomainRegistry') });
  const deployed = await clients.public.getCode({ address: registry });
  if (!current || !deployed || deployed === current) return false;
  await clients.public.request({ method: 'anvil_setCode' as never, params: [registry, current as Hex] as never });
  return true;
}
