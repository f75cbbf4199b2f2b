import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.ts';
import {
  actingFor,
  actingLine,
  delegatedSignInError,
  delegatedWriteError,
  DelegatedSignerRefusedError,
  sessionFits,
  sessionMisfit,
  signingForLine,
} from './acting.ts';

const wallet = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const other = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const account = '0x1234567890AbcdEF1234567890aBcdef1234abcd';
const smart = { address: account, kind: 'erc1271' } as const;

describe('who signs for whom', () => {
  it('is the wallet itself without a delegated account (a smart-account wallet too)', () => {
    expect(actingFor(wallet, undefined)).toEqual({ account: wallet, signer: wallet });
    expect(actingLine(actingFor(wallet, undefined))).toBeUndefined();
    expect(signingForLine(actingFor(wallet, undefined))).toBeUndefined();
  });

  it('is the delegated account, signed by the wallet, when one is set', () => {
    expect(actingFor(wallet, smart)).toEqual({ account, signer: wallet, delegated: smart });
    expect(actingLine(actingFor(wallet, smart))).toBe('Acting for 0x12…abcd (smart account) · signer 0x3C…93BC');
    expect(actingLine(actingFor(wallet, { address: account, kind: 'eip7702' }))).toBe('Acting for 0x12…abcd (EIP-7702 account) · signer 0x3C…93BC');
    expect(signingForLine(actingFor(wallet, smart))).toBe('Your wallet 0x3C…93BC signs for the smart account 0x12…abcd.');
  });

  it('is the wallet itself when the delegated account is the wallet (address case aside)', () => {
    expect(actingFor(wallet, { address: wallet.toLowerCase() as `0x${string}`, kind: 'erc1271' })).toEqual({ account: wallet, signer: wallet });
  });
});

describe('whether a session still fits', () => {
  const own = { address: wallet };
  const delegatedSession = { address: account, signer: wallet };

  it('compares the wallet that signed, not the session’s account', () => {
    expect(sessionMisfit(delegatedSession, wallet, smart)).toBeUndefined();
    expect(sessionFits(delegatedSession, wallet.toLowerCase() as `0x${string}`, smart)).toBe(true);
    expect(sessionMisfit(delegatedSession, other, smart)).toBe('account-changed');
    expect(sessionMisfit(own, other, undefined)).toBe('account-changed');
  });

  it('ends when the account to act for changes, the wallet staying the same', () => {
    expect(sessionMisfit(own, wallet, smart)).toBe('delegation-changed');
    expect(sessionMisfit(delegatedSession, wallet, undefined)).toBe('delegation-changed');
    expect(sessionMisfit(delegatedSession, wallet, { address: other, kind: 'erc1271' })).toBe('delegation-changed');
  });

  it('does not fit without a wallet or a session', () => {
    expect(sessionFits(undefined, wallet, undefined)).toBe(false);
    expect(sessionFits(own, undefined, undefined)).toBe(false);
  });
});

describe('a delegated account that refuses the wallet', () => {
  const refusal = new ApiError({ status: 401, code: 'UNAUTHORIZED', message: `The delegated account ${account} did not accept the signature`, credential: 'signature' });

  it('on a write, is explained with what to do', () => {
    const error = delegatedWriteError(refusal, actingFor(wallet, smart));
    expect(error).toBeInstanceOf(DelegatedSignerRefusedError);
    expect((error as DelegatedSignerRefusedError).explanation).toEqual({
      title: '0x12…abcd does not accept this wallet’s signatures',
      description:
        'The account did not accept the signature of your wallet 0x3C…93BC, so nothing was done. Approve 0x3C…93BC as a signer of the account (its owner can), or clear the delegated account in Settings to act as your wallet itself.',
    });
  });

  it('leaves other errors, and the same 401 without a delegated account, as they are', () => {
    expect(delegatedWriteError(refusal, actingFor(wallet, undefined))).toBe(refusal);
    const expired = new ApiError({ status: 401, code: 'UNAUTHORIZED', message: 'This nonce was already used: sign the request again' });
    expect(delegatedWriteError(expired, actingFor(wallet, smart))).toBe(expired);
    const forbidden = new ApiError({ status: 403, code: 'FORBIDDEN', message: 'Not the owner' });
    expect(delegatedWriteError(forbidden, actingFor(wallet, smart))).toBe(forbidden);
  });

  it('at sign-in, when the service refuses the signature', () => {
    const original = new Error('refused');
    expect(delegatedSignInError(original, actingFor(wallet, smart), `The signature does not match ${account}`)).toBeInstanceOf(DelegatedSignerRefusedError);
    expect(delegatedSignInError(original, actingFor(wallet, smart), 'This nonce was already used: request a new one')).toBe(original);
    expect(delegatedSignInError(original, actingFor(wallet, undefined), `The signature does not match ${wallet}`)).toBe(original);
  });
});
