import { useQuery } from '@tanstack/react-query';
import { config } from '../config.ts';

/**
 * The service's clock as the dashboard sees it. A local service started with DEV_CONTROLS=true runs a test clock
 * (GET /v-next/dev/clock answers its `now`) that may be days ahead of this device; envelopes and session times are
 * then stamped by it, so signing keeps working while the clock is moved. Anywhere else (production, a local service
 * without the test clock: 404) the offset is 0 and the device's clock is used, as before.
 */

/** How far the service's clock runs ahead of this device, from its answer and when it was asked (the round trip's midpoint). */
export function clockOffsetMs(serviceNow: string, sentAtMs: number, receivedAtMs: number): number {
  const at = Date.parse(serviceNow);
  if (Number.isNaN(at)) return 0;
  return Math.round(at - (sentAtMs + receivedAtMs) / 2);
}

/** The service's time in Unix seconds, given the offset. */
export const serviceNowSeconds = (offsetMs: number, deviceNowMs: number = Date.now()): number => Math.floor((deviceNowMs + offsetMs) / 1000);

/**
 * Asks the service for its clock (a local service only: production never has one, and is not asked). Answers the
 * offset; a service without the test clock answers 404, which is an offset of 0.
 */
export async function readServiceOffset(fetchImpl: typeof fetch = fetch): Promise<number> {
  if (!config.isLocalService) return 0;
  const sent = Date.now();
  try {
    const response = await fetchImpl(`${config.apiBaseUrl}/dev/clock`);
    if (!response.ok) return 0;
    const body = (await response.json()) as { now?: unknown };
    return typeof body.now === 'string' ? clockOffsetMs(body.now, sent, Date.now()) : 0;
  } catch {
    return 0;
  }
}

/** The service's now, for what a page says about time (an expiry "in 3 days"); re-read every minute. */
export function useServiceNow(): Date {
  const offset = useQuery({ queryKey: ['service-clock', config.apiBaseUrl], queryFn: () => readServiceOffset(), staleTime: 60_000, enabled: config.isLocalService });
  return new Date(Date.now() + (offset.data ?? 0));
}
