/** Budgets are counted in slots of one second: fine enough for a per-minute budget, and a key costs 61 counters. */
const SLOT_MS = 1000;

/**
 * A sliding window over the last `windowMs`, counted in one-second slots. A request is admitted when the units admitted
 * in the slots that overlap the past `windowMs` (the current one included, so one slot more than the window holds),
 * plus its own, stay within the budget: so no span of `windowMs` ever admits more than the budget, whatever the clock
 * does at a window's edge. A fixed window admits twice the budget across its edge, and so does a token bucket (a full
 * bucket, then a window's worth of refill); this costs a second at most of extra waiting instead. Refused requests
 * cost nothing, so a client that keeps knocking is let in again as soon as its old requests leave the window.
 */
export class RateLimiter {
  private readonly slots: number;
  private readonly keys = new Map<string, { counts: Uint32Array; slot: number }>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    windowMs = 60_000,
  ) {
    this.slots = Math.ceil(windowMs / SLOT_MS) + 1;
  }

  /** Admits `units` (a request is one, each chain call it makes one more) if the window still has room for them. */
  hit(key: string, units = 1): RateLimitResult {
    const nowMs = this.now();
    const slot = Math.floor(nowMs / SLOT_MS);
    const entry = this.entry(key, slot);
    const used = entry.counts.reduce((sum, n) => sum + n, 0);
    const allowed = used + units <= this.limit;
    if (allowed) entry.counts[slot % this.slots] += units;
    const after = allowed ? used + units : used;
    // When enough units will have left the window: for the next request (the headers) or for this one (Retry-After).
    const needed = allowed ? 1 : Math.min(used, used + units - this.limit);
    const freedAt = this.freedAt(entry, slot, needed);
    const resetSeconds = Math.max(1, Math.ceil((freedAt - nowMs) / 1000));
    return { allowed, limit: this.limit, remaining: Math.max(0, this.limit - after), resetSeconds };
  }

  /** The key's counters, with the slots that left the window since it was last seen emptied. */
  private entry(key: string, slot: number) {
    let entry = this.keys.get(key);
    if (!entry) {
      if (this.keys.size >= 10_000) this.prune(slot);
      entry = { counts: new Uint32Array(this.slots), slot };
      this.keys.set(key, entry);
    }
    for (let s = Math.max(entry.slot + 1, slot - this.slots + 1); s <= slot; s += 1) entry.counts[s % this.slots] = 0;
    entry.slot = Math.max(entry.slot, slot);
    return entry;
  }

  /** The time at which `units` admitted units have left the window, oldest first. */
  private freedAt(entry: { counts: Uint32Array }, slot: number, units: number): number {
    let freed = 0;
    for (let s = slot - this.slots + 1; s <= slot; s += 1) {
      freed += entry.counts[((s % this.slots) + this.slots) % this.slots];
      if (freed >= units) return (s + this.slots) * SLOT_MS;
    }
    return (slot + this.slots) * SLOT_MS;
  }

  private prune(slot: number) {
    for (const [key, entry] of this.keys) if (slot - entry.slot >= this.slots) this.keys.delete(key);
  }
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * The contract's two budgets. Every request counts against its client address first, before anything about it
 * is checked, so invented credentials buy nothing; a request whose credential verified also counts against the
 * acting wallet, so one wallet cannot spread its load over many addresses. The headers show the tighter budget.
 * A chain call made for a request (a contract account's signature) costs its client address one unit more.
 */
export function rateLimits(limitPerMinute: number, now: () => number = Date.now) {
  const limiter = new RateLimiter(limitPerMinute, now);
  return {
    client: (address: string, units = 1) => limiter.hit(`ip:${address}`, units),
    wallet: (wallet: string) => limiter.hit(`wallet:${wallet.toLowerCase()}`),
  };
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.resetSeconds),
    ...(result.allowed ? {} : { 'Retry-After': String(result.resetSeconds) }),
  };
}

export const rateLimitMessage = (result: RateLimitResult) =>
  `Too many requests: at most ${result.limit} a minute. Try again in ${result.resetSeconds} s.`;
