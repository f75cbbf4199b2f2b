/** Formatting the dashboard shares: one way to show an address and one way to show dollars. */

/** An address as `0xAb…cdEf`: enough to tell wallets apart at a glance. Short strings stay as they are. */
export function shortAddress(address: string): string {
  return address.length > 10 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** US cents as dollars the way a person reads them: `$12.34`. */
export function formatUsdCents(cents: number): string {
  return usd.format(cents / 100);
}
