import { getAddress, isAddress } from 'viem';
import { isApiError, type ApiError } from '@/lib/api/client.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import type { SubmitProblem } from './components/RecordForm.tsx';

/**
 * A failed write as the form shows it: the service's field errors on their fields ('rdata', 'name', 'ttl'),
 * a declined signature as a calm note, anything else (401/403 included) explained in words.
 */
export function problemFromError(error: unknown, context: { domain: string; address?: string }): SubmitProblem {
  if (error instanceof SignatureRejectedError) {
    return { formError: { title: 'Signature declined', description: 'Nothing was changed. Your record is still here: sign when you are ready, or add it to the change set.', tone: 'info' } };
  }
  const explained = explainError(error, context);
  const owner = isApiError(error) ? ownerOf(error) : null;
  if (owner) {
    // The whole address, so the owner can check it against their wallets before switching.
    return { formError: { title: explained.title, description: `It belongs to ${owner}. Switch to that wallet in your wallet app to make changes.` } };
  }
  if (isApiError(error) && (error.status === 400 || error.status === 422)) {
    const fieldErrors: Record<string, string> = {};
    for (const [path, messages] of Object.entries(error.fieldErrors)) {
      const field = path.replace(/^records\.\d+\./, '');
      if (['rdata', 'name', 'ttl', 'type'].includes(field)) fieldErrors[field] = messages.join(' ');
    }
    if (Object.keys(fieldErrors).length > 0) return { fieldErrors };
  }
  return { formError: { title: explained.title, description: explained.description } };
}

/** The owner a 403 names (data.owner), checksummed, when the wallet cannot change the domain. */
function ownerOf(error: ApiError): string | null {
  if (error.status !== 403 || !error.data || typeof error.data !== 'object') return null;
  const owner = (error.data as Record<string, unknown>).owner;
  return typeof owner === 'string' && isAddress(owner, { strict: false }) ? getAddress(owner) : null;
}

/** The reason a batch failed, as the draft keeps it beside each item. */
export function reasonFromError(error: unknown, context: { domain: string; address?: string }): { message: string; fieldErrors?: Record<string, string[]> } {
  const explained = explainError(error, context);
  const owner = isApiError(error) ? ownerOf(error) : null;
  if (owner) return { message: `${explained.title}: it belongs to ${owner}. Switch to that wallet to apply these changes.` };
  const message = explained.description ? `${explained.title}: ${explained.description}` : explained.title;
  return { message, fieldErrors: isApiError(error) ? error.fieldErrors : undefined };
}
