import { describe, expect, it } from 'vitest';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { formatClock, formatTokenUnits, refusalInWords, signingSentence, termsOf, tokenShortfall, validUntil } from './x402-terms.ts';

const PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const payer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

function paymentRequired(overrides: Record<string, unknown> = {}) {
  return {
    x402Version: 2,
    error: 'Payment required',
    resource: { url: 'http://localhost/v-next/x402/domain/shop.com', description: 'Register shop.com', mimeType: 'application/json' },
    accepts: [
      { scheme: 'exact', network: 'eip155:31337', amount: '12500000', asset: TOKEN, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'Namefi Test USD', version: '1' }, ...overrides },
    ],
  };
}

describe('termsOf', () => {
  it('reads the amount, token, payee, chain and timeout of the first exact option', () => {
    const terms = termsOf(paymentRequired());
    expect(terms).toMatchObject({ chainId: 31337, network: 'eip155:31337', amountUnits: 12_500_000n, asset: TOKEN, payTo: PAY_TO, maxTimeoutSeconds: 300 });
    // Kept whole (resource, extra) for the x402 client.
    expect(terms.paymentRequired.resource).toEqual(paymentRequired().resource);
    expect(terms.paymentRequired.accepts[0].extra).toEqual({ name: 'Namefi Test USD', version: '1' });
  });

  it('refuses another scheme, a non-EVM network and a malformed amount', () => {
    expect(() => termsOf(paymentRequired({ scheme: 'upto' }))).toThrow(/scheme “upto”/);
    expect(() => termsOf(paymentRequired({ network: 'solana:mainnet' }))).toThrow(/EVM network/);
    expect(() => termsOf(paymentRequired({ amount: '12.5' }))).toThrow(/base units/);
    expect(() => termsOf({ x402Version: 2, accepts: [] })).toThrow(/not x402 v2/);
  });
});

describe('amounts in words', () => {
  it('shows base units as a decimal amount with two decimals at least', () => {
    expect(formatTokenUnits(12_500_000n, 6)).toBe('12.50');
    expect(formatTokenUnits(0n, 6)).toBe('0.00');
    expect(formatTokenUnits(1n, 6)).toBe('0.000001');
    expect(formatTokenUnits(100_000_000n, 6)).toBe('100.00');
    expect(formatTokenUnits(1_234_567_890_000n, 6)).toBe('1,234,567.89');
    expect(formatTokenUnits(5n, 0)).toBe('5.00');
  });

  it('says how much is missing, and nothing when the balance covers the price', () => {
    expect(tokenShortfall(0n, 12_500_000n)).toBe(12_500_000n);
    expect(tokenShortfall(12_499_999n, 12_500_000n)).toBe(1n);
    expect(tokenShortfall(12_500_000n, 12_500_000n)).toBe(0n);
  });
});

describe('validity', () => {
  it('ends maxTimeoutSeconds after the (whole) second of signing', () => {
    const now = Date.parse('2026-03-01T10:00:00.750Z');
    expect(validUntil(now, 300).toISOString()).toBe('2026-03-01T10:05:00.000Z');
    expect(formatClock(validUntil(now, 300), 'UTC')).toBe('10:05:00');
  });
});

describe('what is signed', () => {
  it('puts the transfer in one sentence: amount, token, payer, payee and the time it lapses', () => {
    const terms = termsOf(paymentRequired());
    const sentence = signingSentence({ terms, decimals: 6, symbol: 'USDC', from: payer.address, until: validUntil(Date.parse('2026-03-01T10:00:00Z'), 300), timeZone: 'UTC' });
    expect(sentence).toBe(`A transfer of 12.50 USDC from ${payer.address} to the service ${PAY_TO}, valid until 10:05:00 (5 minutes after you sign)`);
  });

  it('matches what the x402 exact client has the wallet sign', async () => {
    const terms = termsOf(paymentRequired());
    const signed: { primaryType: string; domain: Record<string, unknown>; message: Record<string, unknown> }[] = [];
    const signer = {
      address: payer.address,
      signTypedData: (typed: Parameters<typeof payer.signTypedData>[0]) => {
        signed.push(typed as never);
        return payer.signTypedData(typed);
      },
    };
    const client = x402Client.fromConfig({
      schemes: [{ network: 'eip155:31337', client: new ExactEvmScheme(signer as never) }],
      spendControls: { allowedAssets: [{ network: 'eip155:31337', asset: TOKEN, maxAmountPerPayment: terms.amountUnits.toString() }] },
    });
    const before = validUntil(Date.now(), terms.maxTimeoutSeconds).getTime() / 1000;
    await client.createPaymentPayload(terms.paymentRequired as never);
    const after = validUntil(Date.now(), terms.maxTimeoutSeconds).getTime() / 1000;

    expect(signed).toHaveLength(1);
    const [typed] = signed;
    expect(typed.primaryType).toBe('TransferWithAuthorization');
    expect(typed.domain).toMatchObject({ chainId: terms.chainId, verifyingContract: TOKEN, name: 'Namefi Test USD', version: '1' });
    expect(typed.message).toMatchObject({ from: payer.address, to: PAY_TO, value: terms.amountUnits, validAfter: 0n });
    const validBefore = Number(typed.message.validBefore);
    expect(validBefore).toBeGreaterThanOrEqual(before);
    expect(validBefore).toBeLessThanOrEqual(after);
  });

  it('refuses to sign more than the amount shown', async () => {
    const terms = termsOf(paymentRequired());
    const client = x402Client.fromConfig({
      schemes: [{ network: 'eip155:31337', client: new ExactEvmScheme(payer) }],
      spendControls: { allowedAssets: [{ network: 'eip155:31337', asset: TOKEN, maxAmountPerPayment: '12000000' }] },
    });
    await expect(client.createPaymentPayload(terms.paymentRequired as never)).rejects.toThrow();
  });
});

describe('refusals in words', () => {
  it('explains the service’s reasons, and falls back to its message', () => {
    expect(refusalInWords('insufficient_balance', 'x')).toMatch(/USDC balance does not cover/);
    expect(refusalInWords('authorization_used', undefined)).toMatch(/used already/);
    expect(refusalInWords('something_new', 'The service said so')).toBe('The service said so');
    expect(refusalInWords(null, undefined)).toBe('The service refused the payment.');
  });
});
