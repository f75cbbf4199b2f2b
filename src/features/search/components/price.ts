import type { Availability } from '#core/wire/search.ts';

export function yearlyPrice(availability: Availability): string | undefined {
  const price = availability.pricingDetails?.registrationPrice.price;
  if (!price) return undefined;
  return `${new Intl.NumberFormat('en-US', { style: 'currency', currency: price.currency }).format(price.amount)} / year`;
}

/** In words why a name cannot be bought; the service's reason when it gives one. */
export function unavailableReason(availability: Availability): string {
  if (availability.reason) return availability.reason;
  if (!availability.supported) return 'This ending is not sold here';
  return 'Not available';
}
