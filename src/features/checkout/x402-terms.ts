import { x402PaymentRequired, type X402PaymentRequired } from '#core/wire/x402.ts';

/**
 * The pure side of paying with x402: what the 402 asks for, put in words before the wallet opens. The words are
 * built from the same requirements the x402 client signs from, so what is shown is what is signed.
 */
export interface X402Terms {
  /** The whole PAYMENT-REQUIRED object, handed back to the x402 client unchanged. */
  paymentRequired: X402PaymentRequired;
  network: string;
  chainId: number;
  amountUnits: bigint;
  asset: `0x${string}`;
  payTo: `0x${string}`;
  maxTimeoutSeconds: number;
}

/** Reads the first `exact` option of a decoded PAYMENT-REQUIRED; throws with the reason when there is none. */
export function termsOf(decoded: unknown): X402Terms {
  const parsed = x402PaymentRequired.safeParse(decoded);
  if (!parsed.success) throw new Error(`The service's payment requirements are not x402 v2: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
  const option = parsed.data.accepts[0];
  if (option.scheme !== 'exact') throw new Error(`The service asks for the x402 scheme “${option.scheme}”; this dashboard pays with “exact” only`);
  return {
    paymentRequired: { ...parsed.data, accepts: [option] },
    network: option.network,
    chainId: Number(option.network.slice('eip155:'.length)),
    amountUnits: BigInt(option.amount),
    asset: option.asset as `0x${string}`,
    payTo: option.payTo as `0x${string}`,
    maxTimeoutSeconds: option.maxTimeoutSeconds,
  };
}

/** Base units as a decimal amount: at least two decimals, no trailing zeros beyond (12500000, 6 → "12.50"). */
export function formatTokenUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = decimals > 0 ? digits.slice(digits.length - decimals) : '';
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const groupedWhole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${groupedWhole}${fraction.length < 2 ? `.${fraction.padEnd(2, '0')}` : `.${fraction}`}`;
}

/**
 * The x402 exact client sets validBefore to the moment it signs plus maxTimeoutSeconds: signed now, the
 * authorization lapses at this time (a later signature lapses later by as much).
 */
export function validUntil(nowMs: number, maxTimeoutSeconds: number): Date {
  return new Date(Math.floor(nowMs / 1000) * 1000 + maxTimeoutSeconds * 1000);
}

export function formatClock(at: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone }).format(at);
}

function formatDuration(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** What the wallet will be asked to sign, in one sentence. */
export function signingSentence(input: {
  terms: X402Terms;
  decimals: number;
  symbol: string;
  from: string;
  until: Date;
  timeZone?: string;
}): string {
  const { terms, decimals, symbol, from, until, timeZone } = input;
  return (
    `A transfer of ${formatTokenUnits(terms.amountUnits, decimals)} ${symbol} from ${from} to the service ${terms.payTo}, ` +
    `valid until ${formatClock(until, timeZone)} (${formatDuration(terms.maxTimeoutSeconds)} after you sign)`
  );
}

/** How much the wallet lacks, or 0n when its balance covers the payment. */
export function tokenShortfall(balanceUnits: bigint, amountUnits: bigint): bigint {
  return balanceUnits >= amountUnits ? 0n : amountUnits - balanceUnits;
}

const REFUSALS: Record<string, string> = {
  insufficient_balance: 'Your wallet’s USDC balance does not cover the price.',
  invalid_exact_evm_insufficient_balance: 'Your wallet’s USDC balance does not cover the price.',
  authorization_used: 'This signed payment was used already; sign a new one.',
  invalid_exact_evm_payload_authorization_valid_before: 'The signed payment expired before it reached the service; sign a new one.',
  invalid_exact_evm_payload_authorization_valid_after: 'The signed payment is not valid yet; check your computer’s clock.',
  invalid_exact_evm_signature: 'The service could not verify the signature against your wallet.',
  requirements_mismatch: 'The payment did not match what the service asks for this name (price, token, payee or chain).',
  invalid_payload: 'The service could not read the signed payment.',
};

/** A refused payment (a 402 after signing) in words: the service's own message when no known reason fits. */
export function refusalInWords(reason: string | null | undefined, message: string | undefined): string {
  const known = reason ? REFUSALS[reason] : undefined;
  return known ?? message ?? 'The service refused the payment.';
}
