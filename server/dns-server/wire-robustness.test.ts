import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cookies } from './edns.ts';
import { packetCache } from './packet-cache.ts';
import { responseRateLimiter, truncatedAnswer } from './rrl.ts';
import { answerFor, answerWire, cachedAnswer } from './server.ts';
import { parseTsigKeys, signRequest, tsigFailure, tsigKeyName, verifyTsig } from './tsig.ts';
import type { ZoneSource } from './zone-source.ts';

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

/** An OPT record's bytes: owner, type 41, UDP size, extended RCODE, version, flags, RDATA length (as given), RDATA. */
function optRecord({ owner = [0], version = 0, rdata = Buffer.alloc(0), rdlength = rdata.length }: { owner?: number[]; version?: number; rdata?: Buffer; rdlength?: number }): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(41, 0);
  fixed.writeUInt16BE(1232, 2);
  fixed[5] = version;
  fixed.writeUInt16BE(rdlength, 8);
  return Buffer.concat([Buffer.from(owner), fixed, rdata]);
}

const option = (code: number, data: Buffer) => Buffer.concat([Buffer.from([code >> 8, code & 255, data.length >> 8, data.length & 255]), data]);

/** A query for example.com A with the given records in its answer, authority and additional sections. */
function queryWith(sections: { answers?: Buffer[]; authorities?: Buffer[]; additionals?: Buffer[] }): Buffer {
  const header = dnsPacket.encode({ id: 0x4242, type: 'query', flags: 0, questions: [{ name: 'example.com', type: 'A' }] });
  const { answers = [], authorities = [], additionals = [] } = sections;
  const out = Buffer.concat([header, ...answers, ...authorities, ...additionals]);
  out.writeUInt16BE(answers.length, 6);
  out.writeUInt16BE(authorities.length, 8);
  out.writeUInt16BE(additionals.length, 10);
  return out;
}

describe('malformed EDNS (RFC 6891, RFC 7873)', () => {
  const zones = { find: async () => null, subscribed: false, onChange: () => () => undefined } as unknown as ZoneSource;
  const secrets = cookies.cookieSecrets(Buffer.alloc(32, 7));
  const peer = { address: '192.0.2.7', secrets };
  const rcodeOf = (answer: Buffer) => answer[3] & 0xf;

  it('answers FORMERR to two OPTs, an OPT outside the additional section, one not owned by the root, a cookie of the wrong size', async () => {
    const cookieOf = (n: number) => optRecord({ rdata: option(10, Buffer.alloc(n, 1)) });
    const cases: Record<string, Buffer> = {
      'two OPTs': queryWith({ additionals: [optRecord({}), optRecord({})] }),
      'an OPT in the answer section': queryWith({ answers: [optRecord({})] }),
      'an OPT in the authority section': queryWith({ authorities: [optRecord({})], additionals: [optRecord({})] }),
      'an OPT owned by a name': queryWith({ additionals: [optRecord({ owner: [1, 0x61, 0] })] }),
      ...Object.fromEntries([0, 7, 9, 15, 41, 60].map((n) => [`a cookie of ${n} bytes`, queryWith({ additionals: [cookieOf(n)] })])),
    };
    for (const [name, query] of Object.entries(cases)) {
      for (const ask of [() => answerWire(query, zones, false, undefined, undefined, peer), async () => [(await cachedAnswer(query, zones, packetCache(), undefined, peer))?.entry.udp]]) {
        const [answer] = await ask();
        expect(answer, name).toBeDefined();
        expect(answer?.readUInt16BE(0), name).toBe(0x4242);
        expect(rcodeOf(answer as Buffer), name).toBe(1);
      }
    }
    // Well-formed: cookies of 8 and 16..40 bytes are answered (REFUSED: no such zone here), with a server cookie.
    for (const n of [8, 16, 24, 40]) {
      const [answer] = await answerWire(queryWith({ additionals: [cookieOf(n)] }), zones, false, undefined, undefined, peer);
      expect(rcodeOf(answer), `a cookie of ${n} bytes`).toBe(5);
      const opt = dnsPacket.decode(answer).additionals?.find((a) => a.type === 'OPT') as { options: Array<{ code: number; data: Buffer }> };
      expect(opt.options.find((o) => o.code === 10)?.data.length).toBe(24);
    }
  });

  it('answers BADVERS to any EDNS version but 0, with an OPT of version 0 and no answer', async () => {
    for (const version of [1, 2, 255]) {
      const [answer] = await answerWire(queryWith({ additionals: [optRecord({ version })] }), zones, false);
      const decoded = dnsPacket.decode(answer);
      const opt = decoded.additionals?.find((a) => a.type === 'OPT') as { extendedRcode: number; ednsVersion: number };
      expect([rcodeOf(answer), opt.extendedRcode, opt.ednsVersion, decoded.answers?.length]).toEqual([0, 1, 0, 0]);
    }
  });

  it('any OPT bytes (lengths that lie, options that run over, random options) get an answer, never silence or a throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 80 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom<'answers' | 'authorities' | 'additionals'>('answers', 'authorities', 'additionals'),
        async (rdata, rdlength, version, section) => {
          const query = queryWith({ [section]: [optRecord({ rdata: Buffer.from(rdata), rdlength, version })] });
          const [answer] = await answerWire(query, zones, false, undefined, undefined, peer);
          expect(answer.readUInt16BE(0)).toBe(0x4242);
          expect(answer[2] & 0x80).toBe(0x80);
          const viaCache = await cachedAnswer(query, zones, packetCache(), undefined, peer);
          if (viaCache) answerFor(viaCache.entry, query, peer);
          // The byte-level cookie helpers the UDP threads run on the same bytes never throw either.
          const opt = cookies.optOf(query, query.length);
          if (opt >= 0) cookies.findCookie(query, opt + 11, query.readUInt16BE(opt + 9), query.length);
        },
      ),
      { numRuns: 400 },
    );
  });
});
