import { personalSign, signTypedData, SignTypedDataVersion, type MessageTypes, type TypedMessage } from '@metamask/eth-sig-util';
import { hexToBytes, isAddress, type Hex } from 'viem';

/**
 * How MetaMask answers `eth_signTypedData_v4` and `personal_sign`: the same library the extension signs with
 * (`@metamask/eth-sig-util`), fed the params exactly as the dashboard sends them (the typed data as a JSON string),
 * after the checks the extension makes before it shows the request. The errors carry the extension's EIP-1193
 * codes and messages, so the dashboard meets what a person with MetaMask would.
 */

export class WalletRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** EIP-1193 4100: MetaMask's answer when `from` is not an account the site was given. */
const unauthorized = () => new WalletRpcError(4100, 'The requested account and/or method has not been authorized by the user.');

export interface MetaMaskState {
  /** The account the site is connected to (MetaMask's selected, permitted account). */
  connected: `0x${string}`;
  /** The wallet's current chain. */
  chainId: number;
}

function checkFrom(from: unknown, state: MetaMaskState): void {
  if (typeof from !== 'string' || !isAddress(from, { strict: false })) {
    throw new WalletRpcError(-32602, `Invalid parameters: must provide an Ethereum address.`);
  }
  if (from.toLowerCase() !== state.connected.toLowerCase()) throw unauthorized();
}

/** The domain's chainId as MetaMask reads it: a number, a decimal string or a 0x string. */
function chainIdOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.startsWith('0x') ? parseInt(value, 16) : parseInt(value, 10);
  return Number.NaN;
}

/** `eth_signTypedData_v4` with params `[from, json]`: parse the string, check it, sign it with eth-sig-util V4. */
export function metamaskSignTypedDataV4(privateKey: Hex, params: unknown[], state: MetaMaskState): Hex {
  const [from, data] = params;
  checkFrom(from, state);
  let typed: TypedMessage<MessageTypes>;
  try {
    typed = (typeof data === 'string' ? JSON.parse(data) : data) as TypedMessage<MessageTypes>;
  } catch {
    throw new WalletRpcError(-32602, 'Invalid parameters: data must be a valid JSON string.');
  }
  if (!typed || typeof typed !== 'object' || !typed.types || !typed.primaryType || !typed.domain || !typed.message) {
    throw new WalletRpcError(-32602, 'Invalid parameters: data must have types, primaryType, domain and message.');
  }
  // The extension refuses typed data whose domain names another chain than the one it is on.
  const declared = typed.domain.chainId as unknown;
  if (declared !== undefined && declared !== null && declared !== '') {
    const chainId = chainIdOf(declared);
    if (chainId !== state.chainId) {
      throw new WalletRpcError(-32603, `Provided chainId "${String(declared)}" must match the active chainId "${state.chainId}"`);
    }
  }
  return signTypedData({ privateKey: Buffer.from(hexToBytes(privateKey)), data: typed, version: SignTypedDataVersion.V4 }) as Hex;
}

/** `personal_sign` with params `[data, from]`: the hex-encoded message is signed as EIP-191 bytes. */
export function metamaskPersonalSign(privateKey: Hex, params: unknown[], state: MetaMaskState): Hex {
  const [data, from] = params;
  checkFrom(from, state);
  if (typeof data !== 'string') throw new WalletRpcError(-32602, 'Invalid parameters: must provide the message to sign.');
  return personalSign({ privateKey: Buffer.from(hexToBytes(privateKey)), data }) as Hex;
}
