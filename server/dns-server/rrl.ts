import { clientNetwork } from '../net/addresses.ts';
/**
 * Response-rate limiting for UDP answers (as BIND's RRL does): at most `perSecond` answers a second to one client
 * network (IPv4 /24, IPv6 /56) for one answer — the same question, or any NXDOMAIN, so random names do not escape
 * it. Past the limit every second answer is sent truncated (TC=1, the question alone: "slip 2"), so a real client
 * asks again over TCP, and the others are dropped: a spoofed flood gets no amplification.
 */
export type RrlVerdict = 'send' | 'truncate' | 'drop';

/** The end of the question section (after QTYPE and QCLASS), or -1 when the message is too short. */
function questionEnd(message: Buffer): number {
  let offset = 12;
  while (offset < message.length && message[offset] !== 0) {
    if ((message[offset] & 0xc0) !== 0) return -1;
    offset += message[offset] + 1;
  }
  offset += 5;
  return offset <= message.length ? offset : -1;
}

/** The answer a limited client still gets every second time: the header with TC set and the question, nothing else. */
export function truncatedAnswer(answer: Buffer): Buffer | null {
  const end = questionEnd(answer);
  if (end < 0 || answer.readUInt16BE(4) !== 1) return null;
  const out = Buffer.from(answer.subarray(0, end));
  out[2] |= 0x02; // TC
  out.writeUInt16BE(0, 6);
  out.writeUInt16BE(0, 8);
  out.writeUInt16BE(0, 10);
  return out;
}

export function responseRateLimiter(perSecond: number, now: () => number = Date.now) {
  let second = -1;
  /** Answers counted this second per client network and answer; negative counts are past the limit. */
  let counts = new Map<string, number>();
  return {
    enabled: perSecond > 0,
    /** What to do with `answer` for the client at `address` asking `query`. */
    check(address: string, query: Buffer, answer: Buffer): RrlVerdict {
      if (perSecond <= 0) return 'send';
      const current = Math.floor(now() / 1000);
      if (current !== second) {
        second = current;
        counts = new Map();
      }
      const rcode = answer.length > 3 ? answer[3] & 0xf : 0;
      const end = questionEnd(query);
      const what = rcode === 3 ? 'NXDOMAIN' : end < 0 ? 'unreadable' : query.toString('latin1', 12, end).toLowerCase();
      const key = `${clientNetwork(address)}|${rcode}|${what}`;
      const seen = (counts.get(key) ?? 0) + 1;
      // A second's table never outgrows a flood of distinct keys by much: past 100,000 keys new ones are limited.
      if (!counts.has(key) && counts.size >= 100_000) return seen % 2 === 0 ? 'truncate' : 'drop';
      counts.set(key, seen);
      if (seen <= perSecond) return 'send';
      return (seen - perSecond) % 2 === 0 ? 'truncate' : 'drop';
    },
  };
}
