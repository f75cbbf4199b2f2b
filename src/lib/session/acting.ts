import { ApiError } from '../api-error.ts';
import type { DelegatedAccount } from '../settings/settings-store.ts';
import { shortAddress } from '../format.ts';

/**
 * Who signs for whom. With a delegated account set, the connected wallet (the signer) acts for that account:
 * the SIWE session is the account's, reads are the account's, and each write is signed by the wallet with the
 * delegated-account header. Without one, the wallet acts as itself (a smart-account wallet included).
 */
export interface Acting {
  /** The address the service acts as: the session's, the owner of what is read and written. */
  account: `0x${string}`;
  /** The connected wallet, which makes every signature. */
  signer: `0x${string}`;
  /** Set when the wallet signs for another account. */
  delegated?: DelegatedAccount;
}

export function sameAddress(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

export function actingFor(wallet: `0x${string}`, delegated: DelegatedAccount | undefined): Acting {
  if (!delegated || sameAddress(delegated.address, wallet)) return { account: wallet, signer: wallet };
  return { account: delegated.address, signer: wallet, delegated };
}

/** What a stored session records of who it is: its account, and the wallet that signed it in when another. */
export interface SessionIdentity {
  address: string;
  signer?: string;
}

/**
 * Why a session no longer fits the wallet and setting of this moment: the wallet changed (the signer is compared,
 * not the session's account), or the account to act for changed. Undefined while it fits.
 */
export function sessionMisfit(
  session: SessionIdentity,
  wallet: `0x${string}`,
  delegated: DelegatedAccount | undefined,
): 'account-changed' | 'delegation-changed' | undefined {
  if (!sameAddress(session.signer ?? session.address, wallet)) return 'account-changed';
  if (!sameAddress(session.address, actingFor(wallet, delegated).account)) return 'delegation-changed';
  return undefined;
}

export function sessionFits(session: SessionIdentity | undefined, wallet: `0x${string}` | undefined, delegated: DelegatedAccount | undefined): boolean {
  return !!session && !!wallet && sessionMisfit(session, wallet, delegated) === undefined;
}

function accountKindLabel(kind: DelegatedAccount['kind']): string {
  return kind === 'eip7702' ? 'EIP-7702 account' : 'smart account';
}

/** "Acting for 0x12…abcd (smart account) · signer 0x34…ef56", or nothing when the wallet acts as itself. */
export function actingLine(acting: Acting): string | undefined {
  if (!acting.delegated) return undefined;
  return `Acting for ${shortAddress(acting.account)} (${accountKindLabel(acting.delegated.kind)}) · signer ${shortAddress(acting.signer)}`;
}

/** For the note shown before the wallet opens: whose wallet signs, and for which account. */
export function signingForLine(acting: Acting): string | undefined {
  if (!acting.delegated) return undefined;
  return `Your wallet ${shortAddress(acting.signer)} signs for the ${accountKindLabel(acting.delegated.kind)} ${shortAddress(acting.account)}.`;
}

/** The delegated account refused the wallet's signature: the wallet is not one of its approved signers. */
export class DelegatedSignerRefusedError extends Error {
  readonly account: string;
  readonly signer: string;
  readonly explanation: { title: string; description: string };

  constructor(input: { account: string; signer: string; cause?: unknown }) {
    const title = `${shortAddress(input.account)} does not accept this wallet’s signatures`;
    const description =
      `The account did not accept the signature of your wallet ${shortAddress(input.signer)}, so nothing was done. ` +
      `Approve ${shortAddress(input.signer)} as a signer of the account (its owner can), ` +
      'or clear the delegated account in Settings to act as your wallet itself.';
    super(`${title}. ${description}`, { cause: input.cause });
    this.name = 'DelegatedSignerRefusedError';
    this.account = input.account;
    this.signer = input.signer;
    this.explanation = { title, description };
  }
}

/**
 * A write refused (401) while acting for a delegated account, turned into words about the account; any other
 * error is returned as it is. The service names the delegated account when that account refused the signature.
 */
export function delegatedWriteError(error: unknown, acting: Acting): unknown {
  if (!acting.delegated || !(error instanceof ApiError) || error.status !== 401) return error;
  if (!/delegated account/i.test(error.message)) return error;
  return new DelegatedSignerRefusedError({ account: acting.account, signer: acting.signer, cause: error });
}

/** A sign-in as a delegated account that the account refused (the service answers valid:false about the signature). */
export function delegatedSignInError(error: unknown, acting: Acting, serviceReason: string | undefined): unknown {
  if (!acting.delegated || !serviceReason || !/signature/i.test(serviceReason)) return error;
  return new DelegatedSignerRefusedError({ account: acting.account, signer: acting.signer, cause: error });
}
