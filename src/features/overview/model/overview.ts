import { shortAddress } from '@/lib/format.ts';

const DAY = 86_400_000;

/** "in 364 days", "today", "3 days ago": how far the expiry lies from now, in whole days. */
export function daysFromNow(expiresAt: string, now: number): string {
  const at = Date.parse(expiresAt);
  if (at <= now) {
    const ago = Math.floor((now - at) / DAY);
    return ago === 0 ? 'today' : `${ago} ${ago === 1 ? 'day' : 'days'} ago`;
  }
  const left = Math.floor((at - now) / DAY);
  return left === 0 ? 'today' : `in ${left} ${left === 1 ? 'day' : 'days'}`;
}

/**
 * Who owns the domain, as far as this dashboard can tell without a chain read: the signed-in wallet's list names it
 * (you), or it does not (another wallet), or nobody is signed in (not known yet).
 */
export function ownerInWords(state: { signedIn: boolean; loading: boolean; ownerAddress: string | undefined }): string {
  if (!state.signedIn) return 'Sign in to see';
  if (state.loading) return 'Checking…';
  return state.ownerAddress ? `You (${shortAddress(state.ownerAddress)})` : 'Not this wallet';
}

/** Whether the apex answers: the addresses DNS gives, or why none. */
export function apexInWords(state: { status: string; addresses: string[] }): { ok: boolean; words: string } {
  if (state.addresses.length > 0) {
    const [first, ...rest] = state.addresses;
    return { ok: true, words: `Answers ${first}${rest.length > 0 ? ` and ${rest.length} more` : ''}` };
  }
  if (state.status === 'NOERROR') return { ok: false, words: 'No address: the domain itself answers nothing' };
  return { ok: false, words: `DNS answers ${state.status}` };
}
