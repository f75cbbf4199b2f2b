import { FORWARD_STATUS_CODES, forwardLocation, type ForwardStatusCode } from '#core/wire/forwarding.ts';
import type { ForwardingChoice } from './api/set-forwarding.ts';

/** Each status in words: what a browser and a search engine make of it. */
export const STATUS_WORDS: Record<ForwardStatusCode, { short: string; long: string }> = {
  301: { short: 'Permanent (301)', long: 'permanently (301): browsers and search engines remember the new address' },
  308: { short: 'Permanent, keeps the method (308)', long: 'permanently (308): remembered, and a form posted to the old address is posted again to the new one' },
  302: { short: 'Temporary (302)', long: 'temporarily (302): nothing is remembered, so you can change it later' },
  307: { short: 'Temporary, keeps the method (307)', long: 'temporarily (307): nothing is remembered, and a form posted is posted again to the new address' },
};

export const STATUS_OPTIONS = FORWARD_STATUS_CODES.map((code) => ({ value: String(code), label: STATUS_WORDS[code].short }));

/** "What will happen", in words, said before the wallet opens. */
export function forwardingPlan(domain: string, choice: ForwardingChoice, parked: boolean): string[] {
  if (!choice.enabled) return [`Stop forwarding ${domain}: the forwarder's address leaves ${domain}, and its visitors reach your own records again`];
  const example = forwardLocation(choice, '/some/page?ref=1');
  const lines = [
    `Send visitors of ${domain} and www.${domain} to ${choice.targetUrl}, ${STATUS_WORDS[choice.statusCode].long}`,
    choice.keepPath
      ? `Keep the path and query they asked for: ${domain}/some/page?ref=1 goes to ${example}`
      : `Send every page to the target itself: ${domain}/some/page?ref=1 goes to ${example}`,
    `Answer ${domain}'s address with the forwarder's (managed records you cannot edit while forwarding is on)`,
  ];
  if (parked) lines.push(`Turn parking off for ${domain}: parking and forwarding cannot both hold the domain`);
  return lines;
}
