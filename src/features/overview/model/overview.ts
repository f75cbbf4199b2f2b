import { DAY_MS } from '#core/dates.ts';
import { shortAddress } from '@/lib/format.ts';


/** "in 364 days", "today", "3 days ago": how far the expiry lies from now, in whole days. */
export function daysFromNow(expiresAt: string, now: number): string {
  const at = Date.parse(expiresAt);
  if (at <= now) {
    const ago = Math.floor((now - at) / DAY_MS);
    return ago === 0 ? 'today' : `${ago} ${ago === 1 ? 'day' : 'days'} ago`;
  }
  const left = Math.floor((at - now) / DAY_MS);
  return left === 0 ? 'today' : `in ${left} ${left === 1 ? 'day' : 'days'}`;
}

/**
 * Who holds the domain: the service's public answer (the renewal quote names the holder, for anyone who asks), else
 * the signed-in wallet's own list (a service without that answer, as production). The holder is "you" when it is the
 * signed-in account.
 */
export function ownerInWords(state: { signedIn: boolean; loading: boolean; ownerAddress: string | undefined; holder?: string; you?: string }): string {
  if (state.holder) {
    const isYou = state.you !== undefined && state.holder.toLowerCase() === state.you.toLowerCase();
    return isYou ? `You (${shortAddress(state.holder)})` : `${shortAddress(state.holder)}${state.signedIn ? ', not this wallet' : ''}`;
  }
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
