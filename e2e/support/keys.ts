import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';

/**
 * Well-known development keys (the first Hardhat/Anvil accounts): public test keys that hold nothing
 * anywhere, used only in Node; no key ever reaches the page.
 */
export const TEST_KEYS = {
  alice: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  bob: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  carol: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  dave: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  erin: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  frank: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
} as const satisfies Record<string, Hex>;


export function addressOf(key: Hex): `0x${string}` {
  return privateKeyToAccount(key).address;
}

/** How RainbowKit shows an address: 0xf3…2266 (4 + 4 characters, one ellipsis). */
export function displayAddress(address: string): string {
  return `${address.slice(0, 4)}…${address.slice(-4)}`;
}
