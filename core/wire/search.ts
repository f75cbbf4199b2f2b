import { z } from 'zod';
import { safeText } from './text.ts';

const price = z.object({
  type: z.literal('PER_YEAR'),
  price: z.object({ amount: z.number(), currency: z.literal('USD') }),
});
export const availability = z.object({
  domain: z.string(),
  availability: z.boolean(),
  supported: z.boolean(),
  importable: z.boolean(),
  reason: z.string().optional(),
  pricingDetails: z
    .object({
      registrationPrice: price,
      renewalPrice: price,
      /** Ours: the one-off fee a renewal adds while the domain is in redemption (absent otherwise). */
      restoreFee: z.object({ amount: z.number(), currency: z.literal('USD') }).optional(),
    })
    .optional(),
  durationValidationInYears: z.object({ min: z.number().int(), max: z.number().int() }).optional(),
});
export type Availability = z.infer<typeof availability>;

export const availabilityQuery = z.object({ domain: safeText().min(1, 'Type a domain name').max(253) });
export const MAX_BULK = 50;
export const bulkAvailabilityQuery = z.object({
  domains: z.array(safeText().min(1).max(253)).min(1, 'Name at least one domain').max(MAX_BULK, `At most ${MAX_BULK} names`),
});
export const bulkAvailability = z.array(availability);

export const suggestionsQuery = z.object({
  query: safeText().min(1, 'Type something to get suggestions').max(253),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(16),
});
export const suggestions = z.object({
  domains: z.array(z.string()),
  page: z.number().int(),
  totalPages: z.number().int(),
  nextPage: z.number().int().nullable(),
  pageSize: z.number().int(),
});
export type Suggestions = z.infer<typeof suggestions>;
