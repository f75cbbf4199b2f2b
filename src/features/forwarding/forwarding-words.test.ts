import { describe, expect, it } from 'vitest';
import { forwardingPlan, STATUS_OPTIONS } from './forwarding-words.ts';

describe('forwardingPlan', () => {
  it('says where visitors go, with an example of the path kept, and that parking turns off', () => {
    const lines = forwardingPlan('old.com', { enabled: true, targetUrl: 'https://new.example/', statusCode: 301, keepPath: true }, true);
    expect(lines[0]).toBe('Send visitors of old.com and www.old.com to https://new.example/, permanently (301): browsers and search engines remember the new address');
    expect(lines[1]).toBe('Keep the path and query they asked for: old.com/some/page?ref=1 goes to https://new.example/some/page?ref=1');
    expect(lines.at(-1)).toMatch(/Turn parking off for old.com/);
  });

  it('without keepPath every page goes to the target; unparked domains are not told about parking', () => {
    const lines = forwardingPlan('old.com', { enabled: true, targetUrl: 'https://new.example/x', statusCode: 302, keepPath: false }, false);
    expect(lines[1]).toBe('Send every page to the target itself: old.com/some/page?ref=1 goes to https://new.example/x');
    expect(lines.join(' ')).not.toMatch(/parking/);
  });

  it('stopping says the apex comes back', () => {
    expect(forwardingPlan('old.com', { enabled: false, targetUrl: 'https://new.example/', statusCode: 301, keepPath: true }, false)).toEqual([
      "Stop forwarding old.com: the forwarder's address leaves old.com, and its visitors reach your own records again",
    ]);
  });

  it('offers the four statuses in words', () => {
    expect(STATUS_OPTIONS.map((o) => o.value)).toEqual(['301', '302', '307', '308']);
    expect(STATUS_OPTIONS.every((o) => /Permanent|Temporary/.test(o.label))).toBe(true);
  });
});
