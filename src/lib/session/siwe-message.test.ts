import { describe, expect, it } from 'vitest';
import { createSiweMessage } from 'viem/siwe';
import type { MessageResult } from '#core/wire/siwe.ts';
import { parseSiweText, siweMessageProblems } from './siwe-message.ts';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const base = { address, chainId: 31337, domain: '127.0.0.1:5173', uri: 'http://127.0.0.1:5173', nonce: 'abcdef123456', statement: 'Sign in to Namefi API', version: '1' as const };

function prepared(overrides: Partial<typeof base> = {}, textOverrides: Partial<typeof base> = {}): MessageResult {
  const issuedAt = new Date('2026-01-01T00:00:00.000Z');
  const expirationTime = new Date('2026-01-01T00:05:00.000Z');
  const message = { ...base, ...overrides, issuedAt: issuedAt.toISOString(), expirationTime: expirationTime.toISOString() };
  const text = { ...base, ...overrides, ...textOverrides };
  return { valid: true, message, messageString: createSiweMessage({ ...text, address: text.address as `0x${string}`, issuedAt, expirationTime }) };
}
const expected = { address, nonce: base.nonce, chainId: 31337, domain: '127.0.0.1:5173' };

describe('the SIWE message check before the wallet opens', () => {
  it('reads the EIP-4361 fields that matter', () => {
    expect(parseSiweText(prepared().messageString)).toEqual({ domain: '127.0.0.1:5173', address, chainId: 31337, nonce: base.nonce, uri: 'http://127.0.0.1:5173' });
  });

  it('passes a message for this site, this address, this nonce and this chain (address case aside)', () => {
    expect(siweMessageProblems(prepared(), { ...expected, address: address.toLowerCase() })).toEqual([]);
  });

  it('refuses a message naming another site', () => {
    expect(siweMessageProblems(prepared({ domain: 'evil.example' }), expected)).toEqual(['it names evil.example instead of 127.0.0.1:5173']);
  });

  it('refuses a text that disagrees with its structured copy', () => {
    expect(siweMessageProblems(prepared({}, { domain: 'evil.example' }), expected)).toEqual(['it names evil.example instead of 127.0.0.1:5173']);
  });

  it('refuses another address, another nonce and another chain', () => {
    const other = prepared({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', nonce: 'zzzzzzzz9999', chainId: 1 });
    expect(siweMessageProblems(other, expected)).toEqual([
      'it names a different address than your wallet',
      'it carries a different nonce than the one just issued',
      'it names chain 1 instead of 31337',
    ]);
  });
});
