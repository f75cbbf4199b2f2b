import { ApiError } from '../api/errors.ts';
import { shortAddress } from '../format.ts';
import { OutsideGrantError, SignatureRejectedError, UnsignableRequestError, WalletRequiredError, isUserRejection } from '../signing/errors.ts';
import { DelegatedSignerRefusedError } from '../session/acting.ts';
import { SiweMessageMismatchError } from '../session/siwe-message.ts';
import { ChainNotAllowedError, SiweUnavailableError } from '../session/siwe-flow.ts';

export interface Explanation {
  title: string;
  description?: string;
}

function ownerOf(data: unknown): string | undefined {
  const owner = data && typeof data === 'object' ? (data as Record<string, unknown>).owner : undefined;
  return typeof owner === 'string' ? owner : undefined;
}

/** Words a domain owner understands, for a toast or an inline message. */
export function explainError(error: unknown, context: { domain?: string; address?: string } = {}): Explanation {
  const domain = context.domain ?? domainOf(error);
  const who = context.address ? `This wallet (${shortAddress(context.address)})` : 'This wallet';
  if (error instanceof SignatureRejectedError || isUserRejection(error)) {
    return { title: 'Signature declined', description: 'You declined in your wallet, so nothing was changed. You can try again whenever you are ready.' };
  }
  if (error instanceof DelegatedSignerRefusedError) return error.explanation;
  if (error instanceof WalletRequiredError) return { title: 'Connect a wallet first', description: error.message };
  if (error instanceof OutsideGrantError) return { title: 'Outside your grant', description: error.message };
  if (error instanceof UnsignableRequestError) return { title: 'This service cannot sign this change in full', description: error.message };
  if (error instanceof SiweMessageMismatchError) return { title: 'Sign-in message refused', description: error.message };
  if (error instanceof ChainNotAllowedError) {
    return { title: 'Switch network to sign in', description: 'This service does not accept sign-in on the network your wallet is on.' };
  }
  if (error instanceof SiweUnavailableError) return { title: 'Sign-in is unavailable right now', description: error.message };
  if (!(error instanceof ApiError)) {
    return { title: 'Something went wrong', description: error instanceof Error ? error.message : undefined };
  }
  switch (error.status) {
    case 0:
      return { title: 'The service cannot be reached', description: 'Check your connection, or the service URL in Settings, and try again.' };
    case 400:
    case 422: {
      const first = error.formErrors[0] ?? Object.values(error.fieldErrors)[0]?.[0];
      return { title: 'Please check what you entered', description: first ?? error.message };
    }
    case 401:
      if (error.credential === 'signature') {
        return { title: 'The signature was not accepted', description: 'It may have expired or already been used. Nothing was changed; please sign again.' };
      }
      if (error.credential === 'api-key') {
        return { title: 'The API key was not accepted', description: 'It may have been revoked. Replace it in Settings, or remove it to use your wallet.' };
      }
      if (error.credential === 'siwe') return { title: 'Your session has ended', description: 'Sign in again to continue where you were.' };
      return { title: 'Sign in to continue', description: 'This needs you to sign in with your wallet.' };
    case 403: {
      // A refusal that names its reason (a grant out of scope, revoked or expired; a key's scope): the service's words.
      if (error.data && typeof error.data === 'object' && 'reason' in error.data) return { title: `${who} cannot make this change to ${domain ?? 'this domain'}`, description: error.message };
      const owner = ownerOf(error.data);
      const target = domain ?? 'this domain';
      return {
        title: `${who} cannot change ${target}`,
        description: owner ? `It belongs to ${shortAddress(owner)}. Switch to that wallet in your wallet app to make changes.` : 'Only the wallet that owns the domain can change it.',
      };
    }
    case 402:
      return { title: 'Not enough balance', description: 'Your balance, less what pending orders hold, does not cover this order. Top up and try again.' };
    case 404:
      return { title: domain ? `${domain} was not found` : 'Not found', description: error.message };
    case 409:
      // A domain past its grace period: the service names the state, the dates and the way back (renewal).
      if (expiredState(error.data)) return { title: domain ? `${domain} has expired` : 'The domain has expired', description: error.message };
      return { title: domain ? `${domain} is no longer available` : 'No longer available', description: 'Someone else got there first. Try another name.' };
    case 429:
      return {
        title: 'Too many requests',
        description: error.retryAfterSeconds !== undefined ? `Please wait ${error.retryAfterSeconds} s and try again.` : 'Please wait a moment and try again.',
      };
    default:
      return { title: 'The service had a problem', description: `${error.message}. Nothing was changed; please try again.` };
  }
}

function domainOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return undefined;
  const domain = (error.data as Record<string, unknown>).domain;
  return typeof domain === 'string' ? domain : undefined;
}

/** The state a 409 names when the domain is past its grace period (redemption), from the error's data. */
function expiredState(data: unknown): string | null {
  const status = (data as { status?: unknown } | null | undefined)?.status;
  return status === 'redemption' || status === 'released' ? status : null;
}
