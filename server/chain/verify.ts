import {
  getAddress,
  hashMessage,
  hashTypedData,
  isAddress,
  isAddressEqual,
  isHex,
  recoverAddress,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type TypedDataDefinition,
} from 'viem';
import { smartAccountAbi } from './contracts.ts';
import { explicitErc7739Signature } from './erc7739.ts';

const ERC1271_MAGIC = '0x1626ba7e';

/** What was signed: EIP-712 typed data, an EIP-191 message (SIWE), or the digest itself. */
export type Signed = { typedData: TypedDataDefinition } | { message: string } | { hash: Hex };

export interface ChainSignatures {
  /** An EIP-712 signature by `address`: an EOA, a deployed ERC-1271 account, or an undeployed one (ERC-6492). */
  verifyTypedDataSignature(input: { address: string; typedData: TypedDataDefinition; signature: string }): Promise<boolean>;
  /** An EIP-191 (personal_sign) signature of a SIWE message's text, with the same three kinds of signer. */
  verifySiweSignature(input: { address: string; message: string; signature: string }): Promise<boolean>;
  /**
   * A signer acting for a contract account (the delegated-account headers): true when `signer` made the
   * signature and the account's ERC-1271 `isValidSignature` accepts it. An EOA delegated with EIP-7702 answers
   * through the code it delegates to, like a contract.
   */
  verifyDelegatedAccount(input: { account: string; signer: string; signature: string } & Signed): Promise<boolean>;
  /**
   * The shape of `ContractSignatureVerifier` in server/auth/contract-signatures.ts: whether `account` accepts a
   * signature of `hash` (EOA recovery, ERC-1271, ERC-6492). The local chain stands in for every chain id.
   */
  isValidSignature(input: { account: string; hash: Hex; signature: Hex; chainId?: number }): Promise<boolean>;
}

/**
 * Signature checks against the chain through viem's universal verification (EOA, ERC-1271, ERC-6492). Every
 * check answers a boolean: malformed input, a reverting account or a chain error are all `false`.
 */
export function chainSignatures(client: PublicClient<Transport, Chain>): ChainSignatures {
  const wellFormed = (address: string, signature: string): signature is Hex => isAddress(address, { strict: false }) && isHex(signature) && signature.length > 2;
  const safely = async (check: () => Promise<boolean>): Promise<boolean> => {
    try {
      return await check();
    } catch {
      return false;
    }
  };
  const verifyOnce = (address: string, hash: Hex, signature: string) =>
    safely(async () => wellFormed(address, signature) && isHex(hash) && (await client.verifyHash({ address: getAddress(address), hash, signature })));
  // A refused ERC-7739 signature in viem's implicit form is asked once more in the explicit form (see erc7739.ts).
  const verifyHash = async (address: string, hash: Hex, signature: string) => {
    if (await verifyOnce(address, hash, signature)) return true;
    const explicit = isHex(signature) ? explicitErc7739Signature(signature) : null;
    return explicit !== null && (await verifyOnce(address, hash, explicit));
  };

  return {
    verifyTypedDataSignature: ({ address, typedData, signature }) => safely(async () => verifyHash(address, hashTypedData(typedData), signature)),
    verifySiweSignature: ({ address, message, signature }) =>
      safely(async () => typeof message === 'string' && (await verifyHash(address, hashMessage(message), signature))),
    isValidSignature: ({ account, hash, signature }) => verifyHash(account, hash, signature),
    verifyDelegatedAccount: (input) =>
      safely(async () => {
        const { account, signer, signature } = input;
        if (!wellFormed(account, signature) || !isAddress(signer, { strict: false })) return false;
        const hash = digestOf(input);
        if (!isAddressEqual(await recoverAddress({ hash, signature }), getAddress(signer))) return false;
        const code = await client.getCode({ address: getAddress(account) });
        if (!code || code === '0x') return false;
        const answer = await client.readContract({
          address: getAddress(account),
          abi: smartAccountAbi,
          functionName: 'isValidSignature',
          args: [hash, signature],
        });
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
