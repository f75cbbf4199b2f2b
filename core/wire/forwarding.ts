import { z } from 'zod';
import { zoneName } from './common.ts';
import { safeText } from './text.ts';

export const FORWARD_STATUS_CODES = [301, 302, 307, 308] as const;
export type ForwardStatusCode = (typeof FORWARD_STATUS_CODES)[number];
export const TARGET_URL_MAX = 2048;

/** A domain never forwarded answers these (the contract's defaults). */
export const FORWARDING_DEFAULTS = { enabled: false, targetUrl: '', statusCode: 301 as ForwardStatusCode, keepPath: true };

const statusCode = z
  .number({ error: 'statusCode must be 301, 302, 307 or 308' })
  .refine((n): n is ForwardStatusCode => (FORWARD_STATUS_CODES as readonly number[]).includes(n), 'statusCode must be 301, 302, 307 or 308');

/** The host a target URL names, or null when it is not an http(s) URL. */
export function targetHost(url: string): string | null {
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** Whether a target sends visitors back to the forwarded domain itself (its apex or www): a redirect loop. */
export function isForwardingLoop(domain: string, url: string): boolean {
  const host = targetHost(url);
  return host === domain || host === `www.${domain}`;
}

export const forwarding = z.object({
  normalizedDomainName: zoneName,
  enabled: z.boolean(),
  targetUrl: z.string(),
  statusCode,
  keepPath: z.boolean(),
});
export type Forwarding = z.infer<typeof forwarding>;

/**
 * setForwarding's payload. The target must be an http:// or https:// URL of at most 2,048 characters while
 * enabled (off, it may be empty: it is kept for next time), and never the domain itself.
 */
export const setForwardingInput = z
  .object({
    normalizedDomainName: zoneName,
    enabled: z.boolean(),
    targetUrl: safeText(z.string().max(TARGET_URL_MAX, `targetUrl is at most ${TARGET_URL_MAX} characters`)),
    statusCode,
    keepPath: z.boolean(),
  })
  .superRefine((input, ctx) => {
    if (input.targetUrl === '' && !input.enabled) return;
    if (targetHost(input.targetUrl) === null) {
      ctx.addIssue({ code: 'custom', path: ['targetUrl'], message: 'targetUrl must be an http:// or https:// URL, like https://example.org/' });
    } else if (isForwardingLoop(input.normalizedDomainName, input.targetUrl)) {
      ctx.addIssue({ code: 'custom', path: ['targetUrl'], message: `targetUrl points at ${input.normalizedDomainName} itself, which would forward to itself forever` });
    }
  });
export type SetForwardingInput = z.infer<typeof setForwardingInput>;
export const forwardingQuery = z.object({ normalizedDomainName: zoneName });

/** Where the forwarder sends a request for `pathAndQuery` ("/a?b"): the target, plus the path and query when kept. */
export function forwardLocation(setting: Pick<Forwarding, 'targetUrl' | 'keepPath'>, pathAndQuery: string): string {
  if (!setting.keepPath || pathAndQuery === '' || pathAndQuery === '/') return setting.targetUrl;
  return setting.targetUrl.replace(/\/$/, '') + (pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`);
}

export const tryForwardingQuery = z.object({ normalizedDomainName: zoneName, path: safeText(z.string().max(TARGET_URL_MAX).regex(/^\/(?!\/)\S*$/, 'path starts with a single /, like /a?b')).default('/') });
/** What the forwarder answered a request for the domain: its status and Location (null when it has none). */
export const forwardingTrial = z.object({ url: z.string(), host: z.string(), status: z.number(), location: z.string().nullable() });
export type ForwardingTrial = z.infer<typeof forwardingTrial>;
