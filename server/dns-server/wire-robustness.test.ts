import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packetCache } from './packet-cache.ts';
import { responseRateLimiter, truncatedAnswer } from './rrl.ts';
import { parseTsigKeys, signRequest, tsigFailure, tsigKeyName, verifyTsig } from './tsig.ts';

const KEY = parseTsigKeys([`k:hmac-sha256:${Buffer.from('thirty-two bytes of test secret!').toString('base64')}`])[0];
const query = dnsPacket.encode({ id: 7, type: 'query', flags: 0, questions: [{ name: 'example.com', type: 'AXFR' }] });

describe('bytes from the network', () => {
  it('a signed request verifies; any changed byte makes it fail, never throw (but the ID and the case of names, as RFC 8945 allows)', () => {
    const { message } = signRequest(query, KEY);
    expect(verifyTsig(message, [KEY])).toMatchObject({ kind: 'ok' });
    fc.assert(
      fc.property(fc.nat(message.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const changed = Buffer.from(message);
        changed[at] ^= flip;
        // The ID may be rewritten in transit (the original is inside TSIG); TSIG's own names are compared without case.
        const letter = /[a-z]/i.test(String.fromCharCode(message[at]));
        fc.pre(at > 1 && !(letter && flip === 0x20 && at >= query.length));
        expect(verifyTsig(changed, [KEY]).kind).not.toBe('ok');
      }),
      { numRuns: 1000 },
    );
  });

  it('a signature older than its fudge (300 s) is refused, and its refusal is signed over the request (RFC 8945 §5.2.3)', () => {
    const { message, mac } = signRequest(query, KEY, Math.floor(Date.now() / 1000) - 301);
    const check = verifyTsig(message, [KEY]);
    expect(check).toMatchObject({ kind: 'error', error: 18 });
    const refusal = tsigFailure(dnsPacket.encode({ id: 7, type: 'response', flags: 0, questions: [] }), check as Extract<typeof check, { kind: 'error' }>);
    expect(verifyTsig(refusal, [KEY], Math.floor(Date.now() / 1000) - 301, mac).kind).toBe('ok');
    expect(tsigKeyName(message)).toBe('k');
  });

  it('TSIG, the packet cache and RRL take any bytes without throwing', () => {
    const cache = packetCache();
    const rrl = responseRateLimiter(1);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), (bytes) => {
        const message = Buffer.from(bytes);
        const check = verifyTsig(message, [KEY]);
        tsigKeyName(message);
        if (check.kind === 'error' && message.length >= 12) tsigFailure(message.subarray(0, 12), check);
        cache.lookup(message);
        if (message.length >= 12) {
          cache.set(message, { udp: message, full: message, zone: null }, cache.begin());
          rrl.check('192.0.2.1', message, message);
          truncatedAnswer(message);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
