import { safeText } from '#core/wire/text.ts';
import { z } from 'zod';
import { zoneName } from '#core/wire/common.ts';
import { createdOrder, registerDomainInput, renewDomainInput, type RenewalQuote } from '#core/wire/orders.ts';
import type { Availability } from '#core/wire/search.ts';
import { annotationsFor, call, ToolRefusal, type Tool, type ToolContext } from './tool-kit.ts';
import { QUOTE_TTL_MS, holderOf, newId, type Quote } from './stores.ts';

const kind = z.enum(['register', 'renew']);
const quoteInput = z.object({
  kind: kind.describe('register: a name nobody holds; renew: a registered name (anyone may renew any name, as a gift)'),
  domain: zoneName,
  years: registerDomainInput.shape.durationInYears.max(10, 'At most 10 years'),
});
const quoteOutput = z.object({
  quoteId: z.string(),
  kind,
  domain: z.string(),
  years: z.number(),
  totalInUSDCents: z.number(),
  words: z.string(),
  expiresAt: z.string(),
});

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** What the service charges now for this name and these years, in cents; refused when it cannot be bought or renewed. */
async function priceNow(ctx: ToolContext, kind: Quote['kind'], domain: string, years: number): Promise<number> {
  if (kind === 'register') {
    const [found] = (await call(ctx, 'checkBulkAvailability', { domains: [domain] })) as Availability[];
    if (!found?.availability || !found.pricingDetails) throw new ToolRefusal(`${domain} cannot be registered${found?.reason ? `: ${found.reason}` : ''}`, { domain: ['Not available'] });
    return Math.round(found.pricingDetails.registrationPrice.price.amount * 100) * years;
  }
  const quote = (await call(ctx, 'getRenewalQuote', { normalizedDomainName: domain })) as RenewalQuote;
  return quote.renewalPriceInUSDCentsPerYear * years + (quote.restoreFeeInUSDCents ?? 0);
}

export const quoteRegistration: Tool = {
  name: 'quote_registration',
  title: 'Quote a registration or a renewal',
  description:
    'The price of registering (kind "register") or renewing (kind "renew") a name for some years, as a quoteId valid 5 minutes, bound to the name, the years ' +
    'and the price. Nothing is spent. Tell the person the price in words and ask them to agree before register_domain or renew_domain.',
  input: quoteInput,
  output: quoteOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, ctx) {
    const input = args as z.output<typeof quoteInput>;
    const total = await priceNow(ctx, input.kind, input.domain, input.years);
    const at = ctx.now().getTime();
    const quote: Quote = { id: newId('quote'), holder: holderOf(ctx.credential), kind: input.kind, domain: input.domain, years: input.years, totalInUSDCents: total, expiresAt: at + QUOTE_TTL_MS, used: false };
    await ctx.stores.saveQuote(quote);
    const plural = input.years === 1 ? 'year' : 'years';
    return {
      quoteId: quote.id,
      kind: quote.kind,
      domain: quote.domain,
      years: quote.years,
      totalInUSDCents: total,
      words: `${input.kind === 'register' ? 'Register' : 'Renew'} ${input.domain} for ${input.years} ${plural}: ${dollars(total)}, paid from the key's wallet's credit`,
      expiresAt: new Date(quote.expiresAt).toISOString(),
    };
  },
};

const spendInput = z.object({
  quoteId: safeText(z.string().min(1).max(100)),
  domain: zoneName,
  years: z.number().int().min(1).max(10),
  idempotencyKey: safeText(z.string().min(8, 'At least 8 characters: a fresh random value per purchase (a UUID), the same on a retry').max(200)),
});
const spendOutput = z.object({ order: createdOrder, replayed: z.boolean(), words: z.string() });

/**
 * A spending tool: the quote must be this key's, unexpired, unused and for this name and years; the price must still
 * be the quoted one; a retried call (same idempotency key) answers the first call's order and charges nothing.
 */
function spendingTool(kindOf: Quote['kind'], name: string, title: string, description: string): Tool {
  const operation = kindOf === 'register' ? 'registerDomain' : 'renewDomain';
  return {
    name,
    title,
    description,
    input: spendInput,
    output: spendOutput,
    // Idempotent by its idempotency key; destructive because it spends (from the operation's declaration).
    annotations: annotationsFor(operation, { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
    async run(args, ctx) {
      const input = args as z.output<typeof spendInput>;
      if (!ctx.credential.apiKey) throw new ToolRefusal('Spending needs an API key: without one, use prepare_signature so the person’s wallet signs it');
      const { stores } = ctx;
      const holder = holderOf(ctx.credential);
      const at = ctx.now().getTime();
      const what = JSON.stringify([kindOf, input.quoteId, input.domain, input.years]);
      const start = await stores.beginSpend(holder, input.idempotencyKey, what, at);
      if (!start.first) {
        if (start.what !== what) throw new ToolRefusal('This idempotency key was used for another purchase: use a fresh one for a new purchase', { idempotencyKey: ['Used for another purchase'] });
        const answer = await start.answer().catch((error: unknown) => {
          throw new ToolRefusal(error instanceof Error ? error.message : String(error), { idempotencyKey: ['The earlier call did not finish'] });
        });
        return { ...answer, replayed: true };
      }
      let claimed = false;
      try {
        const quote = await stores.readQuote(input.quoteId, at);
        if (!quote || quote.holder !== holder || quote.kind !== kindOf) throw new ToolRefusal(`No ${kindOf} quote ${input.quoteId} for this key: quotes last 5 minutes; ask quote_registration again`, { quoteId: ['Unknown or expired quote'] });
        const mismatch: Record<string, string[]> = {};
        if (quote.domain !== input.domain) mismatch.domain = [`The quote is for ${quote.domain}`];
        if (quote.years !== input.years) mismatch.years = [`The quote is for ${quote.years} years`];
        if (Object.keys(mismatch).length > 0) throw new ToolRefusal('The call does not match its quote', mismatch);
        claimed = await stores.claimQuote(quote.id);
        if (!claimed) throw new ToolRefusal('This quote was spent already: ask quote_registration again for a new purchase', { quoteId: ['Used'] });
        const price = await priceNow(ctx, kindOf, input.domain, input.years);
        if (price !== quote.totalInUSDCents) throw new ToolRefusal(`The price changed since the quote (${dollars(quote.totalInUSDCents)} then, ${dollars(price)} now): quote again and ask the person`, { quoteId: ['Price changed'] });
        const body = kindOf === 'register' ? registerDomainInput.parse({ normalizedDomainName: input.domain, durationInYears: input.years }) : renewDomainInput.parse({ normalizedDomainName: input.domain, durationInYears: input.years });
        const order = await call(ctx, operation, body);
        const words = `${kindOf === 'register' ? 'Ordered the registration of' : 'Ordered the renewal of'} ${input.domain} for ${input.years} year${input.years === 1 ? '' : 's'} (${dollars(quote.totalInUSDCents)}); follow it with get_order`;
        const answer = { order, replayed: false, words } as Record<string, unknown>;
        await stores.finishSpend(holder, input.idempotencyKey, answer);
        return answer;
      } catch (error) {
        // Nothing was charged: the key may be used again, and the quote too (unless its price moved).
        await stores.forgetSpend(holder, input.idempotencyKey);
        if (claimed) await stores.releaseQuote(input.quoteId);
        throw error;
      }
    },
  };
}

export const registerDomain = spendingTool(
  'register',
  'register_domain',
  'Register a domain',
  'Registers a name, paid from the key’s wallet’s credit: needs a quoteId from quote_registration (kind "register", same name and years) and an idempotencyKey ' +
    '(a fresh UUID per purchase; send the same one on a retry and nothing is charged twice). Call it only after the person agreed to the quoted price.',
);

export const renewDomain = spendingTool(
  'renew',
  'renew_domain',
  'Renew a domain',
  'Renews a name, paid from the key’s wallet’s credit: needs a quoteId from quote_registration (kind "renew", same name and years) and an idempotencyKey ' +
    '(a fresh UUID per renewal; the same one on a retry, which is charged once). Call it only after the person agreed to the quoted price and the new expiry.',
);
