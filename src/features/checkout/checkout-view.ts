import type { Availability } from '#core/wire/search.ts';
import { ApiError } from '@/lib/api/client.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { formatUsdCents } from '@/lib/format.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { missingCents, placeServiceError, pricePerYearCents, totalCents, type CheckoutValues, type YearsRange } from './checkout-form.ts';

/**
 * What the checkout shows worked out from its values (CheckoutForm.tsx renders it): the price and what is missing,
 * the words for the signature, and where a refused order's errors go.
 */

/** The price per year, the total for valid years, and how much credit is missing (0 when the balance covers it or is unknown). */
export function checkoutTotals(input: { availability: Availability; range: YearsRange; years: number; balanceCents: number | undefined }) {
  const { range, years, balanceCents } = input;
  const perYear = pricePerYearCents(input.availability);
  const validYears = Number.isInteger(years) && years >= range.min && years <= range.max;
  const total = perYear !== undefined && validYears ? totalCents(perYear, years) : undefined;
  const missing = total !== undefined && balanceCents !== undefined ? missingCents(total, balanceCents) : 0;
  return { perYear, validYears, total, missing };
}

/** What the wallet will be asked to sign: the registration and its price, the records it creates, where the NFT goes. */
export function registrationLines(input: { domain: string; values: Pick<CheckoutValues, 'years' | 'records' | 'nftWallet'>; validYears: boolean; total: number | undefined }): string[] {
  const { domain, validYears, total } = input;
  const { years, records, nftWallet } = input.values;
  return [
    `Register ${domain} for ${validYears ? years : '?'} year${years === 1 ? '' : 's'}, paying ${total !== undefined ? formatUsdCents(total) : '…'} from your credit`,
    ...(records.length > 0 ? [`Create ${records.length} DNS record${records.length === 1 ? '' : 's'} once it is registered`] : []),
    ...(nftWallet.custom ? [`Send the domain NFT to ${nftWallet.walletAddress || '…'} on chain ${nftWallet.chainId || '…'}`] : []),
  ];
}

/** An x402 purchase buys the name alone: why it cannot go with records, when there are some. */
export function x402BlockedBy(recordCount: number): string | undefined {
  return recordCount > 0 ? `An x402 purchase buys the name alone: remove the ${recordCount} record${recordCount === 1 ? '' : 's'} here and add them once it is registered.` : undefined;
}

/** The notices above and beside the form after a refused order. */
export interface CheckoutNotices {
  balance?: string;
  domain?: string;
  form?: string[];
  declined?: boolean;
}

/**
 * Where a failed registration is told: a declined signature as such, a service's errors on their fields or beside
 * the balance, the name or the form, and any other failure explained above the Pay button.
 */
export function noticesForError(error: unknown, domain: string): { notices: CheckoutNotices; fieldErrors: Array<{ field: string; message: string }> } {
  if (error instanceof SignatureRejectedError) return { notices: { declined: true }, fieldErrors: [] };
  if (!(error instanceof ApiError)) return { notices: { form: [explainError(error, { domain }).description ?? String(error)] }, fieldErrors: [] };
  const notices: CheckoutNotices = {};
  const fieldErrors: Array<{ field: string; message: string }> = [];
  for (const placed of placeServiceError(error)) {
    if ('field' in placed) fieldErrors.push(placed);
    else if (placed.place === 'form') notices.form = [...(notices.form ?? []), placed.message];
    else notices[placed.place] = placed.message;
  }
  if (error.status !== 400 && error.status !== 422 && error.status !== 402 && error.status !== 409) {
    const explained = explainError(error, { domain });
    notices.form = [[explained.title, explained.description].filter(Boolean).join(': ')];
  }
  return { notices, fieldErrors };
}
