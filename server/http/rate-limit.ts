/** A fixed one-minute window per key: enough for a local stand-in of production's per-client limit. */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(key: string, now = Date.now()): RateLimitResult {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.prune(now);
    }
    window.count += 1;
    const resetSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    return { allowed: window.count <= this.limit, limit: this.limit, remaining: Math.max(0, this.limit - window.count), resetSeconds };
  }

  private prune(now: number) {
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
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
 */
export function rateLimits(limitPerMinute: number) {
  const limiter = new RateLimiter(limitPerMinute);
  return {
    client: (address: string) => limiter.hit(`ip:${address}`),
    wallet: (wallet: string) => limiter.hit(`wallet:${wallet.toLowerCase()}`),
  };
}
export type RateLimits = ReturnType<typeof rateLimits>;

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
