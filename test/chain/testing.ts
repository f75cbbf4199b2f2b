import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  getAddress,
  hashMessage,
  hashTypedData,
  isAddress,
  isAddressEqual,
  isHex,
  recoverAddress,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type TypedDataDefinition,
} from 'viem';
import type { ContractSignatureVerifier } from '../../server/auth/contract-signatures.ts';
import { startAnvil, type Anvil } from '../../server/chain/anvil.ts';
import { chainClients, type ChainClients } from '../../server/chain/client.ts';
import { ensureDeployment, type Deployment } from '../../server/chain/deploy.ts';
import { fundOnAnvil } from './dev-actions.ts';
import { smartAccountAbi } from '../../server/chain/contracts.ts';
import { chainSignatures } from '../../server/chain/verify.ts';

export interface TestChain {
  anvil: Anvil;
  clients: ChainClients;
  deployment: Deployment;
  dataDir: string;
  /** Gives `address` ETH for gas (anvil_setBalance). */
  fund(address: Address): Promise<void>;
  /** Stops anvil and removes the data dir. */
  close(): Promise<void>;
}

/** A fresh anvil on a free port with a temp data dir and the contracts deployed: one per test file. */
export async function startTestChain(): Promise<TestChain> {
  const dataDir = await mkdtemp(join(tmpdir(), 'namefi-chain-'));
  const anvil = await startAnvil({ dataDir });
  const clients = chainClients({ rpcUrl: anvil.rpcUrl });
  const { deployment } = await ensureDeployment(clients, { dataDir });
  return {
    anvil,
    clients,
    deployment,
    dataDir,
    fund: (address) => fundOnAnvil(clients, address),
    async close() {
      await anvil.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const ERC1271_MAGIC = '0x1626ba7e';

/** What was signed: EIP-712 typed data, an EIP-191 message (SIWE), or the digest itself. */
type Signed = { typedData: TypedDataDefinition } | { message: string } | { hash: Hex };

/** The service's chain check (`isValidSignature`) with the ways tests ask it: by typed data, by SIWE text, and as a delegated account. */
export interface SignatureChecks extends ContractSignatureVerifier {
  /** An EIP-712 signature by `address`: an EOA, a deployed ERC-1271 account, or an undeployed one (ERC-6492). */
  verifyTypedDataSignature(input: { address: string; typedData: TypedDataDefinition; signature: string }): Promise<boolean>;
  /** An EIP-191 (personal_sign) signature of a SIWE message's text, with the same three kinds of signer. */
  verifySiweSignature(input: { address: string; message: string; signature: string }): Promise<boolean>;
  /**
   * A signer acting for a contract account: true when `signer` made the signature and the account's ERC-1271
   * `isValidSignature` accepts it. An EOA delegated with EIP-7702 answers through the code it delegates to.
   */
  verifyDelegatedAccount(input: { account: string; signer: string; signature: string } & Signed): Promise<boolean>;
}

/** Every check answers a boolean: malformed input, a reverting account or a chain error are all `false`. */
export function signatureChecks(client: PublicClient<Transport, Chain>): SignatureChecks {
  const { isValidSignature } = chainSignatures(client);
  const safely = async (check: () => Promise<boolean>): Promise<boolean> => {
    try {
      return await check();
    } catch {
      return false;
    }
  };
  return {
    isValidSignature,
    verifyTypedDataSignature: ({ address, typedData, signature }) =>
      safely(() => isValidSignature({ account: address, hash: hashTypedData(typedData), signature: signature as Hex })),
    verifySiweSignature: ({ address, message, signature }) =>
      safely(async () => typeof message === 'string' && (await isValidSignature({ account: address, hash: hashMessage(message), signature: signature as Hex }))),
    verifyDelegatedAccount: (input) =>
      safely(async () => {
        const { account, signer, signature } = input;
        if (!isAddress(account, { strict: false }) || !isHex(signature) || signature.length <= 2 || !isAddress(signer, { strict: false })) return false;
        const hash = digestOf(input);
        if (!isAddressEqual(await recoverAddress({ hash, signature }), getAddress(signer))) return false;
        const code = await client.getCode({ address: getAddress(account) });
        if (!code || code === '0x') return false;
        const answer = await client.readContract({ address: getAddress(account), abi: smartAccountAbi, functionName: 'isValidSignature', args: [hash, signature] });
        return answer === ERC1271_MAGIC;
      }),
  };
}

function digestOf(signed: Signed): Hex {
  if ('typedData' in signed) return hashTypedData(signed.typedData);
  if ('message' in signed) return hashMessage(signed.message);
  if (!isHex(signed.hash) || signed.hash.length !== 66) throw new Error('hash must be 32 bytes');
  return signed.hash;
}
