export interface RetryOptions {
  /** Attempts after the first one. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs?: number;
  shouldRetry: (error: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
}

/** Delay before retry n (1-based): base · 2^(n-1), capped. No jitter: one browser, one request. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs = 8000): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
}

export async function retryWithBackoff<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= options.retries || !options.shouldRetry(error)) throw error;
      const delay = backoffDelay(attempt + 1, options.baseDelayMs, options.maxDelayMs);
      options.onRetry?.(attempt + 1, delay, error);
      await sleep(delay);
    }
  }
}
