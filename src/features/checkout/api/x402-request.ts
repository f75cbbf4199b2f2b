import { operations, operationPath } from '#core/operations/index.ts';
import { x402Purchase, type X402Purchase } from '#core/wire/x402.ts';
import { buildUrl } from '@/lib/api/client.ts';
import { ApiError, errorFromResponse } from '@/lib/api/errors.ts';
import { config } from '@/lib/config.ts';
import { termsOf, type X402Terms } from '../x402-terms.ts';

/**
 * registerDomainX402 (GET /x402/domain/{name}), production's x402 purchase: without a payment it answers 402 with
 * PAYMENT-REQUIRED; with a PAYMENT-SIGNATURE it settles and answers `accepted`. The @x402 packages (zod 3) are
 * imported here on demand only, so they load when a person pays this way, never with the first page.
 */
const op = operations.registerDomainX402;

export interface X402Target {
  domain: string;
  years: number;
  /** Another wallet to receive the NFT; the service allows it only with the payer's SIWE token. */
  receiver?: string;
}

/** The service refused a signed payment (a 402 after signing): nothing was taken and the name is still available. */
export class X402RefusedError extends Error {
  constructor(
    message: string,
    readonly reason: string | null,
  ) {
    super(message);
    this.name = 'X402RefusedError';
  }
}

function urlOf(target: X402Target): string {
  return buildUrl(config.apiBaseUrl, operationPath(op.path, { normalizedDomainName: target.domain }), {
    durationInYears: target.years,
    nftReceivingWalletAddress: target.receiver,
  });
}

async function send(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<{ response: Response; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'The service could not be reached', data: { url: config.apiBaseUrl } });
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text for the error.
  }
  return { response, body };
}

/** Asks the price without paying: the 402's requirements for this name and duration. Writes nothing. */
export async function fetchX402Terms(target: X402Target, signal?: AbortSignal): Promise<X402Terms> {
  const { response, body } = await send(urlOf(target), {}, signal);
  if (response.status !== 402) {
    if (!response.ok) throw errorFromResponse(response.status, body, response.headers.get('retry-after'));
    throw new Error(`The service answered ${response.status} without asking for a payment`);
  }
  const header = response.headers.get('PAYMENT-REQUIRED');
  if (!header) throw new Error('The service asked for a payment without a PAYMENT-REQUIRED header');
  const { decodePaymentRequiredHeader } = await import('@x402/core/http');
  return termsOf(decodePaymentRequiredHeader(header));
}

/** What the x402 exact client needs from a wallet: its address and an EIP-712 signature. */
export interface X402WalletSigner {
  readonly address: `0x${string}`;
  signTypedData(message: { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> }): Promise<`0x${string}`>;
}

/**
 * One wallet signature (EIP-3009 TransferWithAuthorization, by @x402/evm's exact client) and the paid request.
 * The client allows only the token and amount shown to the person: the local token is not one of x402's default
 * assets, and a cap at the shown amount means a changed price is refused before the wallet opens.
 */
export async function payWithX402(input: {
  target: X402Target;
  terms: X402Terms;
  signer: X402WalletSigner;
  /** The SIWE token when signed in: the order then belongs to the session's wallet and shows in its orders. */
  siweHeaders?: Record<string, string>;
}): Promise<X402Purchase> {
  const { target, terms, signer } = input;
  const [{ x402Client, x402HTTPClient }, { ExactEvmScheme }] = await Promise.all([import('@x402/core/client'), import('@x402/evm/exact/client')]);
  type Network = Parameters<typeof x402Client.prototype.register>[0];
  const network = terms.network as Network;
  const client = x402Client.fromConfig({
    schemes: [{ network, client: new ExactEvmScheme(signer) }],
    spendControls: { allowedAssets: [{ network, asset: terms.asset, maxAmountPerPayment: terms.amountUnits.toString() }] },
  });
  const payload = await client.createPaymentPayload(terms.paymentRequired as Parameters<typeof client.createPaymentPayload>[0]);
  const paymentHeaders = new x402HTTPClient(client).encodePaymentSignatureHeader(payload);

  const { response, body } = await send(urlOf(target), { ...input.siweHeaders, ...paymentHeaders });
  if (response.status === 402) {
    const data = (body as { message?: string; data?: { reason?: string | null } } | undefined) ?? {};
    throw new X402RefusedError(data.message ?? 'The service refused the payment', data.data?.reason ?? null);
  }
  if (!response.ok) throw errorFromResponse(response.status, body, response.headers.get('retry-after'));
  const parsed = x402Purchase.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ status: response.status, code: 'INVALID_RESPONSE', message: 'The service answered the x402 purchase in an unexpected shape', data: parsed.error.issues });
  }
  return parsed.data;
}
