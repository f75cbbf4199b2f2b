import { randomUUID } from 'node:crypto';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { formatUnits, getAddress, isAddress } from 'viem';
import type { Principal, Services } from '../services.ts';
import { DomainError, conflict, forbidden, invalidInput } from '../domain-errors.ts';
import { checkName } from '../search/availability.ts';
import { checkNameAndDuration, formatUsd } from '../search/pricing.ts';
import { USD_DECIMALS, USD_EIP712, USD_UNITS_PER_CENT } from '../chain/usd-token.ts';
import type { RegisterDomainX402Query, X402Purchase } from '#core/wire/x402.ts';
import { crashPoint } from '../chain/crash-points.ts';
import { completeSettledPurchase } from './complete-purchase.ts';
import { estimatedSeconds, purchaseOfAuthorization, recordIntent, type SignedAuthorization } from './purchase-store.ts';
import type { X402Rail } from './rail.ts';

/** How long a signed authorization may wait before it is settled (its validBefore, set by the client from this). */
const MAX_TIMEOUT_SECONDS = 300;

type Authorization = SignedAuthorization['authorization'];

export function railOf(services: Services): X402Rail {
  if (!services.x402) throw forbidden('x402 payments need the local chain: start the service with CHAIN=anvil');
  return services.x402;
}

/** A refused payment: a DomainError `payment-required` carrying this as its data (the route sends it as PAYMENT-REQUIRED too). */
export interface PaymentRefusal {
  reason: string | null;
  paymentRequired: PaymentRequired;
}

/**
 * registerDomainX402: 402 with the requirements, or with a payment verify → record the intent → settle → create the
 * order. Every refusal before the settlement leaves nothing behind; an order that cannot be created after it is
 * refunded on chain; a crash in between is finished at start-up (recover.ts).
 */
export async function purchaseWithX402(ctx: {
  services: Services;
  input: RegisterDomainX402Query;
  name: string;
  principal: Principal | null;
  /** The PAYMENT-SIGNATURE header (or its alias) as sent, if any. */
  paymentSignature: string | null;
  /** The URL paid for, named in the requirements. */
  resourceUrl: string;
}): Promise<{ purchase: X402Purchase; settlement: SettleResponse }> {
  const { services, input, principal } = ctx;
  const rail = railOf(services);
  const years = input.durationInYears ?? input.years ?? 1;
  const { name, amountCents } = checkNameAndDuration({ normalizedDomainName: ctx.name, durationInYears: years });
  const amount = (BigInt(amountCents) * USD_UNITS_PER_CENT).toString();
  const requirements = await rail.resourceServer.buildPaymentRequirements({
    scheme: 'exact',
    network: rail.network,
    payTo: rail.payTo,
    price: { amount, asset: rail.asset, extra: { ...USD_EIP712 } },
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
  });
  const resource = { url: ctx.resourceUrl, description: `Register ${name} for ${years} year(s): ${formatUsd(amountCents)}`, mimeType: 'application/json' };
  const refuse = async (message: string, reason?: string): Promise<never> => {
    const required = await rail.resourceServer.createPaymentRequiredResponse(requirements, resource, message);
    const refusal: PaymentRefusal = { reason: reason ?? null, paymentRequired: required };
    throw new DomainError('payment-required', message, refusal);
  };

  const header = ctx.paymentSignature;
  let payload: PaymentPayload | null = null;
  if (header) {
    try {
      payload = decodePaymentSignatureHeader(header);
    } catch {
      return refuse('The PAYMENT-SIGNATURE header is not a base64 x402 payment payload', 'invalid_payload');
    }
  }
  const authorization = payload ? authorizationOf(payload) : null;
  if (payload && !authorization) return refuse('The payment is not an EIP-3009 authorization of scheme exact', 'invalid_payload');
  // A used authorization is a replay whatever the name (its own may be taken by now): 402 before anything else.
  if (authorization) {
    const used = await purchaseOfAuthorization(services.db, authorization.from, authorization.nonce);
    if (used) return refuse(`This authorization was used already (purchase ${used.id} of ${used.normalized_domain_name}); sign a new one`, 'authorization_used');
  }
  const availability = await checkName(services.db, name);
  if (!availability.availability) throw invalidInput({ normalizedDomainName: [`${name} cannot be bought: ${availability.reason ?? 'taken'}`] });
  if (!payload || !authorization) return refuse(`Payment required: ${formatUsd(amountCents)} in USDC for ${name}`);
  const payer = getAddress(authorization.from);

  // The receiver is the one field a relay could change: another wallet only with the payer's own SIWE token.
  const receiver = input.nftReceivingWalletAddress ? getAddress(input.nftReceivingWalletAddress) : payer;
  if (receiver !== payer && !(principal?.via === 'siwe' && principal.wallet === payer.toLowerCase())) {
    throw invalidInput(
      { nftReceivingWalletAddress: ['Another wallet receives the NFT only with the payer’s SIWE token (x-namefi-siwe-token); nothing was charged'] },
    );
  }

  // The library throws on a payload it cannot read at all (an x402Version other than 1 or 2, say): that is the
  // client's malformed payment, a 402 like any other, never a 500.
  let matching: PaymentRequirements | undefined;
  try {
    matching = rail.resourceServer.findMatchingRequirements(requirements, payload);
  } catch (error) {
    return refuse(`The payment is not an x402 version 2 payload: ${(error as Error).message}`, 'invalid_payload');
  }
  if (!matching) return refuse(mismatch(payload.accepted, requirements[0]), 'requirements_mismatch');
  // The token's own nonce state and the payer's balance, read here so the refusal says which it is.
  if (await rail.usd.authorizationUsed(payer, authorization.nonce as `0x${string}`)) return refuse('This authorization was used on the chain already; sign a new one', 'authorization_used');
  const balance = await rail.usd.balanceUnits(payer);
  if (balance < BigInt(amount)) {
    return refuse(`The payer’s USDC balance (${formatUnits(balance, USD_DECIMALS)}) does not cover the price (${formatUnits(BigInt(amount), USD_DECIMALS)} USDC)`, 'insufficient_balance');
  }

  const verified = await rail.resourceServer.verifyPayment(payload, matching).catch((error: unknown) => ({
    isValid: false,
    invalidReason: 'verification_error',
    invalidMessage: (error as Error).message,
  }));
  if (!verified.isValid) return refuse(`The payment does not verify: ${describeReason(verified.invalidReason, verified.invalidMessage)}`, verified.invalidReason);

  // The intent, before settling: it reserves the authorization (two requests with it never both reach the chain) and
  // lets a start-up after a crash finish the purchase from what the chain says (recover.ts).
  const purchaseId = randomUUID();
  const signature = (payload.payload as { signature: string }).signature;
  try {
    await recordIntent(services.db, {
      id: purchaseId,
      payer,
      name,
      years,
      receiver,
      amountUnits: amount,
      network: rail.network,
      asset: rail.asset,
      payment: { authorization, signature },
      now: services.now(),
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return refuse('This authorization was used already; sign a new one', 'authorization_used');
    throw error;
  }

  const settled: SettleResponse = await rail.resourceServer.settlePayment(payload, matching).catch((error: unknown) => ({
    success: false,
    errorReason: 'settlement_error',
    errorMessage: (error as Error).message,
    transaction: '',
    network: rail.network,
  }));
  // A settlement that answered an error may still have landed: the token's nonce state decides, not the answer.
  if (!settled.success && !(await rail.usd.authorizationUsed(payer, authorization.nonce as `0x${string}`))) {
    await services.db.query(`DELETE FROM x402_purchases WHERE id = $1 AND status = 'SETTLING'`, [purchaseId]);
    return refuse(`The payment could not be settled: ${describeReason(settled.errorReason, settled.errorMessage)}`, settled.errorReason);
  }
  // The kill -9 suite dies here: the payment is on the chain, the order not written (recovered at start-up).
  crashPoint('x402-settled');
  const settlementTx = settled.transaction || (await rail.usd.settlementOf(payer, authorization.nonce as `0x${string}`));
  const done = await completeSettledPurchase(services.db, rail, { purchaseId, settlementTx, now: services.now });
  if ('refunded' in done) {
    const { reason, transaction } = done.refunded;
    throw conflict(`${reason}; the payment was refunded on chain (${transaction})`, { purchaseId, refundTransaction: transaction });
  }
  const { orderId } = done;
  services.notifyOrders();
  const purchase: X402Purchase = {
    status: 'accepted',
    message: `Payment settled; ${name} is being registered`,
    purchaseId,
    domain: name,
    buyerWallet: payer,
    nftReceivingWalletAddress: receiver,
    estimatedCompletionSeconds: estimatedSeconds(services.config.ORDER_PROCESSING_MS),
    orderId,
  };
  const settlement: SettleResponse = settled.success ? settled : { success: true, transaction: settlementTx ?? '', network: rail.network, payer };
  return { purchase, settlement };
}

function authorizationOf(payload: PaymentPayload): Authorization | null {
  const auth = (payload.payload as { authorization?: Partial<Authorization> } | undefined)?.authorization;
  if (!auth || typeof payload.payload.signature !== 'string') return null;
  const fields = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce];
  if (!fields.every((f) => typeof f === 'string') || !isAddress(auth.from as string) || !/^0x[0-9a-fA-F]{64}$/.test(auth.nonce as string)) return null;
  const { from, to, value, validAfter, validBefore, nonce } = auth as Authorization;
  return { from, to, value, validAfter, validBefore, nonce };
}

/** A paid-for term as the client sent it, for the error: any JSON value (an object without toString included). */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** Which of the paid-for terms differ from this name's: the client paid for something else. */
function mismatch(accepted: PaymentRequirements | undefined, wanted: PaymentRequirements): string {
  if (!accepted) return 'The payment names no requirements it accepted';
  const diffs: string[] = [];
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : null);
  if (accepted.scheme !== wanted.scheme) diffs.push(`scheme ${shown(accepted.scheme)}, expected ${wanted.scheme}`);
  if (accepted.network !== wanted.network) diffs.push(`network ${shown(accepted.network)}, expected ${wanted.network}`);
  if (lower(accepted.asset) !== wanted.asset.toLowerCase()) diffs.push(`asset ${shown(accepted.asset)}, expected ${wanted.asset}`);
  if (lower(accepted.payTo) !== wanted.payTo.toLowerCase()) diffs.push(`payee ${shown(accepted.payTo)}, expected ${wanted.payTo}`);
  if (accepted.amount !== wanted.amount) diffs.push(`amount ${shown(accepted.amount)}, expected ${wanted.amount} (base units)`);
  return `The payment does not match this name's requirements: ${diffs.join('; ') || 'its terms differ'}`;
}

const REASONS: Record<string, string> = {
  invalid_exact_evm_signature: 'the signature does not match the authorization',
  invalid_exact_evm_payload_authorization_valid_before: 'the authorization has expired (validBefore passed)',
  invalid_exact_evm_payload_authorization_valid_after: 'the authorization is not valid yet (validAfter)',
  invalid_exact_evm_payload_authorization_value_mismatch: 'the authorized amount is not the price',
  invalid_exact_evm_recipient_mismatch: 'the authorization pays someone other than the service',
  invalid_exact_evm_insufficient_balance: 'the payer’s USDC balance does not cover the price',
  invalid_exact_evm_network_mismatch: 'the network differs',
};

function describeReason(reason?: string, message?: string): string {
  const known = reason ? REASONS[reason] : undefined;
  if (known) return known;
  if (reason && /balance/i.test(reason)) return REASONS.invalid_exact_evm_insufficient_balance;
  if (reason && /nonce/i.test(reason)) return 'this authorization was used already';
  return [reason, message].filter(Boolean).join(': ') || 'refused';
}
