import { getAddress, isAddress, zeroAddress } from 'viem';

/**
 * The receiving wallet of a domain, as typed in the send dialog, checked at the field before anything is signed:
 * an address of 20 bytes; a mixed-case address must match its EIP-55 checksum (a typo in one is caught); never the
 * zero address (the token would be burned, the domain lost) and never the sender's own address (nothing would move).
 * Answers the checksummed address, or the reason in words.
 */
export function checkReceiver(typed: string, owner: string): { ok: true; address: `0x${string}` } | { ok: false; reason: string } {
  const value = typed.trim();
  if (value === '') return { ok: false, reason: 'Enter the address of the wallet that receives the domain' };
  if (!/^0x[0-9a-fA-F]*$/.test(value)) return { ok: false, reason: 'An address starts with 0x followed by 40 hexadecimal characters (0-9, a-f)' };
  if (value.length !== 42) return { ok: false, reason: `An address has 40 hexadecimal characters after 0x; this one has ${value.length - 2}` };
  const hex = value.slice(2);
  // All one case carries no checksum (EIP-55); mixed case must match it.
  const checksummed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  if (checksummed && !isAddress(value, { strict: true })) {
    return { ok: false, reason: 'The address does not match its checksum (its capital letters): a character is probably wrong. Copy it again from the receiving wallet' };
  }
  const address = getAddress(value);
  if (address === zeroAddress) return { ok: false, reason: 'The zero address belongs to no one: a domain sent there is lost for good' };
  if (address.toLowerCase() === owner.toLowerCase()) return { ok: false, reason: 'This is the wallet that holds the domain now: enter another wallet' };
  return { ok: true, address };
}
