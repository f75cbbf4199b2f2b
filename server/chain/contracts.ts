import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import { artifactFile, type ContractName } from './compile.ts';
import { creditAbi, domainRegistryAbi, smartAccountAbi, smartAccountFactoryAbi, usdTokenAbi } from './artifacts/abis.ts';

export { creditAbi, domainRegistryAbi, smartAccountAbi, smartAccountFactoryAbi, usdTokenAbi };

const bytecodes = new Map<ContractName, Hex>();
/** Creation bytecode from the committed artifact (read once; no solc at run time). */
export function bytecodeOf(name: ContractName): Hex {
  let code = bytecodes.get(name);
  if (!code) {
    code = (JSON.parse(readFileSync(artifactFile(name), 'utf8')) as { bytecode: Hex }).bytecode;
    bytecodes.set(name, code);
  }
  return code;
}
