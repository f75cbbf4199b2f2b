import { concat, hexToString, isErc6492Signature, numberToHex, parseErc6492Signature, serializeErc6492Signature, size, slice, stringToHex, type Hex } from 'viem';

/**
 * ERC-7739 nested typed-data signatures (Solady's ERC1271, used by its ERC-4337 account) end with
 * `appDomainSeparator ‖ contentsHash ‖ contentsDescription ‖ uint16(length)`. In the implicit mode the description is
 * `encodeType(contents)`, which the account splices after `TypedDataSign(Contents contents,…)`: that equals the
 * `encodeType(TypedDataSign)` the owner signed only when the contents' type name sorts before its dependencies
 * (EIP-712 sorts them). Every envelope here is `XEnvelope` holding an `X`, which sorts first, and viem's
 * `wrapTypedDataSignature` (what `toSoladySmartAccount` sends) always uses the implicit mode, so the account
 * refuses the owner's correct signature. The explicit mode, `sortedTypes ‖ contentsName`, describes the same
 * signed data in the form the account rebuilds correctly.
 */

const STRUCT = /([^()]+)\(([^()]*)\)/g;

/**
 * The same signature with its implicit description restated in the explicit mode, or null when there is nothing
 * to restate (not ERC-7739 typed data, already explicit, or already in sorted order). An ERC-6492 wrapper is kept.
 */
export function explicitErc7739Signature(signature: Hex): Hex | null {
  if (isErc6492Signature(signature)) {
    const { address, data, signature: inner } = parseErc6492Signature(signature);
    const restated = explicitErc7739Signature(inner);
    return restated && address && data ? serializeErc6492Signature({ address, data, signature: restated }) : null;
  }
  const total = size(signature);
  if (total < 65 + 64 + 2) return null;
  const length = Number(BigInt(slice(signature, total - 2, total)));
  const start = total - 2 - length;
  if (length === 0 || start - 64 < 65) return null;
  let description: string;
  try {
    description = hexToString(slice(signature, start, total - 2));
  } catch {
    return null;
  }
  if (!description.endsWith(')')) return null;
  const structs = [...description.matchAll(STRUCT)].map((m) => ({ name: m[1], text: m[0] }));
  if (structs.length < 2 || structs.map((s) => s.text).join('') !== description) return null;
  const contentsName = structs[0].name;
  const sorted = [...structs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (sorted[0].name === contentsName) return null;
  const explicit = stringToHex(`${sorted.map((s) => s.text).join('')}${contentsName}`);
  return concat([slice(signature, 0, start), explicit, numberToHex(size(explicit), { size: 2 })]);
}
