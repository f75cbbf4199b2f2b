import { recover } from 'tiny-secp256k1';
import { bytesToHex, hexToBytes, keccak256, recoverAddress, type Hex } from 'viem';

/**
 * The address that made `signature` over `hash`, for every signed request. libsecp256k1 compiled to WebAssembly
 * (tiny-secp256k1) recovers a key several times faster than viem's pure-JavaScript secp256k1, and recovery is
 * most of a signed write's cost; anything it does not take (a compact or wrapped signature, an odd `v`) goes to
 * viem, so the answers are viem's either way. Lower-case address.
 */
export async function recoverSigner(hash: Hex, signature: Hex): Promise<string> {
  return fastRecover(hash, signature) ?? (await recoverAddress({ hash, signature })).toLowerCase();
}

function fastRecover(hash: Hex, signature: Hex): string | null {
  if (signature.length !== 132) return null;
  const bytes = hexToBytes(signature);
  const v = bytes[64];
  const recoveryId = v >= 27 ? v - 27 : v;
  if (recoveryId !== 0 && recoveryId !== 1) return null;
  try {
    const publicKey = recover(hexToBytes(hash), bytes.subarray(0, 64), recoveryId, false);
    if (!publicKey) return null;
    return `0x${keccak256(bytesToHex(publicKey.subarray(1))).slice(-40)}`;
  } catch {
    return null;
  }
}
