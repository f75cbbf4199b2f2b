import { isTerminal } from '#core/wire/orders.ts';

/** The contract asks clients to poll an order every 5 s until it reaches a terminal status. */
export const POLL_INTERVAL_MS = 5_000;
/**
 * An order just created (its page starts from the create answer) is asked about sooner: a fast order is
 * often done within a second or two, and the person is watching.
 */
export const FIRST_POLL_MS = 1_500;
/** After errors the wait doubles, up to a minute, so a struggling service is not hammered. */
export const MAX_POLL_BACKOFF_MS = 60_000;

export interface PollState {
  /** Last known status; undefined while the first answer is on its way. */
  status: string | undefined;
  /** Failed polls in a row since the last good answer. */
  errorCount: number;
  /** The tab is hidden: nobody is watching, so nothing is asked. */
  hidden: boolean;
  /** What is known comes from the create answer alone: no GET has answered yet. */
  fromCreate?: boolean;
}

/** Milliseconds until the next poll of an order, or false when no request should be made. */
export function nextPollDelay({ status, errorCount, hidden, fromCreate }: PollState): number | false {
  if (status !== undefined && isTerminal(status)) return false;
  if (hidden) return false;
  if (errorCount <= 0) return fromCreate ? FIRST_POLL_MS : POLL_INTERVAL_MS;
  return Math.min(MAX_POLL_BACKOFF_MS, POLL_INTERVAL_MS * 2 ** errorCount);
}
