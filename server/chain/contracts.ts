import type { Hex } from 'viem';
import * as Credit from './artifacts/Credit.ts';
import * as DomainRegistry from './artifacts/DomainRegistry.ts';
import * as SmartAccount from './artifacts/SmartAccount.ts';
import * as SmartAccountFactory from './artifacts/SmartAccountFactory.ts';
import * as SoladyAccount from './artifacts/SoladyAccount.ts';
import * as SoladyAccountFactory from './artifacts/SoladyAccountFactory.ts';
import * as UsdToken from './artifacts/UsdToken.ts';

/**
 * The project's contracts as the service uses them: the checked-in artifacts (server/chain/artifacts/, one module
 * per contract, written by scripts/compile-contracts.ts from contracts/*.sol). No solc at run time.
 */
const ARTIFACTS = { DomainRegistry, Credit, SmartAccount, SmartAccountFactory, UsdToken, SoladyAccount, SoladyAccountFactory };
export type ContractName = keyof typeof ARTIFACTS;

export const creditAbi = Credit.abi;
export const domainRegistryAbi = DomainRegistry.abi;
export const smartAccountAbi = SmartAccount.abi;
export const smartAccountFactoryAbi = SmartAccountFactory.abi;
export const usdTokenAbi = UsdToken.abi;

/** Creation bytecode from the checked-in artifact. */
export function bytecodeOf(name: ContractName): Hex {
  return ARTIFACTS[name].bytecode;
}
