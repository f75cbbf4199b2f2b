import fc from 'fast-check';
import * as dnsPacket from 'dns-packet';
import { errorBodyProblem } from './operation-cases.ts';

/**
 * DNS over HTTPS (`/dns-query`, RFC 8484) fed hostile messages: well-formed queries for odd names and types, the same
 * truncated or with bytes flipped, headers whose counts lie, compression pointers that loop, and random bytes; sent
 * as GET ?dns= (base64url, or text that is not) and as POST bodies under the right and wrong content types.
 * Properties: never a 5xx; a 4xx is the error body; a 200 is a DNS message.
 */

export interface DohCase {
  method: 'GET' | 'POST';
  bytes: Uint8Array;
  /** GET: the dns parameter as sent, when it is not the bytes' base64url (padding, other alphabets, garbage). */
  dnsText: string | null;
  contentType: string | null;
  mutation: string;
}

const TYPES = ['A', 'AAAA', 'TXT', 'MX', 'CNAME', 'NS', 'SOA', 'CAA', 'SRV', 'PTR', 'ANY', 'AXFR', 'IXFR', 'OPT', 'DNSKEY', 'DS', 'RRSIG', 'NSEC', 'HTTPS', 'SVCB'];
const CLASSES = ['IN', 'CH', 'HS', 'ANY'];

const label = fc.oneof(
  fc.constantFrom('www', '*', '@', 'xn--tda', '_dmarc', 'a'.repeat(63), 'a'.repeat(64), '', '..', '\\.', 'ü'),
  fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 }),
);

function dnsName(zones: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...zones, '.', '', 'com', 'example.com', 'a.'.repeat(127) + 'com'),
    fc.tuple(fc.array(label, { maxLength: 4 }), fc.constantFrom(...zones)).map(([labels, zone]) => [...labels, zone].join('.')),
    fc.array(label, { minLength: 1, maxLength: 6 }).map((labels) => labels.join('.')),
  );
}

/** A query dns-packet can encode: any name, type (by name or number), class, flags, id, EDNS options. */
function wellFormed(zones: string[]): fc.Arbitrary<Uint8Array> {
  return fc
    .record({
      id: fc.integer({ min: 0, max: 0xffff }),
      flags: fc.integer({ min: 0, max: 0xffff }),
      questions: fc.array(
        fc.record({
          name: dnsName(zones),
          type: fc.oneof(fc.constantFrom(...TYPES), fc.integer({ min: 0, max: 0xffff }).map((n) => `TYPE${n}`)),
          class: fc.constantFrom(...CLASSES),
        }),
        { minLength: 0, maxLength: 3 },
      ),
      edns: fc.option(fc.record({ udpPayloadSize: fc.integer({ min: 0, max: 0xffff }), options: fc.array(fc.record({ code: fc.integer({ min: 0, max: 0xffff }), data: fc.uint8Array({ maxLength: 40 }) }), { maxLength: 3 }) })),
    })
    .map(({ id, flags, questions, edns }) => {
      const packet = {
        type: 'query' as const,
        id,
        flags,
        questions: questions as dnsPacket.Question[],
        additionals: edns ? [{ type: 'OPT', name: '.', udpPayloadSize: edns.udpPayloadSize, options: edns.options.map((o) => ({ code: o.code, data: Buffer.from(o.data) })) } as dnsPacket.Answer] : [],
      };
      try {
        return new Uint8Array(dnsPacket.encode(packet));
      } catch {
        // A name dns-packet will not write (a label over 63 bytes, say): the header alone, claiming one question.
        return new Uint8Array([id >> 8, id & 0xff, flags >> 8, flags & 0xff, 0, 1, 0, 0, 0, 0, 0, 0]);
      }
    });
}

/** Twelve header bytes with the counts chosen, then `rest`. */
const header = (counts: number[], rest: number[] = []) => new Uint8Array([0x12, 0x34, 0x01, 0x00, ...counts.flatMap((n) => [n >> 8, n & 0xff]), ...rest]);

const CRAFTED: Array<[string, Uint8Array]> = [
  ['empty', new Uint8Array(0)],
  ['one byte', new Uint8Array([0])],
  ['header only, no question', header([0, 0, 0, 0])],
  ['counts that lie', header([0xffff, 0xffff, 0xffff, 0xffff])],
  ['a question with no bytes', header([1, 0, 0, 0])],
  ['pointer to itself', header([1, 0, 0, 0], [0xc0, 0x0c, 0, 1, 0, 1])],
  ['pointer loop of two', header([1, 0, 0, 0], [0xc0, 0x0e, 0xc0, 0x0c, 0, 1, 0, 1])],
  ['pointer past the end', header([1, 0, 0, 0], [0xc0, 0xff, 0, 1, 0, 1])],
  ['label longer than the message', header([1, 0, 0, 0], [0x3f, 0x61])],
  ['reserved label type 0x40', header([1, 0, 0, 0], [0x41, 0x61, 0, 0, 1, 0, 1])],
  ['name over 255 bytes', header([1, 0, 0, 0], [...Array.from({ length: 9 }, () => [0x3f, ...Array.from({ length: 63 }, () => 0x61)]).flat(), 0, 0, 1, 0, 1])],
  ['a response, not a query', new Uint8Array([0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4])],
  ['opcode UPDATE', new Uint8Array([0x12, 0x34, 0x28, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 1])],
  ['answer count without answers', header([1, 5, 0, 0], [0, 0, 1, 0, 1])],
  ['OPT with a bad length', header([1, 0, 0, 1], [0, 0, 1, 0, 1, 0, 0, 41, 0x10, 0, 0, 0, 0, 0, 0xff, 0xff])],
];

function message(zones: string[]): fc.Arbitrary<{ bytes: Uint8Array; mutation: string }> {
  const valid = wellFormed(zones);
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((bytes) => ({ bytes, mutation: 'query' })) },
    { weight: 2, arbitrary: fc.constantFrom(...CRAFTED).map(([mutation, bytes]) => ({ bytes, mutation })) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).map(([bytes, cut]) => ({ bytes: bytes.slice(0, bytes.length === 0 ? 0 : cut % bytes.length), mutation: 'truncated' })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })).map(([bytes, flips]) => {
        const copy = bytes.slice();
        for (const [at, value] of flips) if (copy.length > 0) copy[at % copy.length] = value;
        return { bytes: copy, mutation: 'bytes changed' };
      }),
    },
    { weight: 1, arbitrary: fc.tuple(valid, fc.uint8Array({ minLength: 1, maxLength: 100 })).map(([bytes, tail]) => ({ bytes: new Uint8Array([...bytes, ...tail]), mutation: 'trailing bytes' })) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => ({ bytes, mutation: 'random bytes' })) },
    { weight: 1, arbitrary: fc.constant({ bytes: new Uint8Array(70_000), mutation: 'over 65,535 bytes' }) },
  );
}

/** The dns parameter as a client might get it wrong: padded, the standard alphabet, or text. */
const dnsTextChange = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant('padded') },
  { weight: 1, arbitrary: fc.constant('standard alphabet') },
  { weight: 1, arbitrary: fc.constant('garbage') },
  { weight: 1, arbitrary: fc.constant('empty') },
);

const CONTENT_TYPES = ['application/dns-message', 'application/dns-message', 'application/dns-message; charset=utf-8', 'APPLICATION/DNS-MESSAGE', 'application/json', 'text/plain', 'application/dns-messagex', ''];

export function dohCaseArbitrary(zones: string[]): fc.Arbitrary<DohCase> {
  return fc
    .record({
      method: fc.constantFrom('GET' as const, 'POST' as const),
      message: message(zones),
      textChange: dnsTextChange,
      garbage: fc.string({ maxLength: 40 }),
      contentType: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant(null) }),
    })
    .map(({ method, message: { bytes, mutation }, textChange, garbage, contentType }) => {
      const base64url = Buffer.from(bytes).toString('base64url');
      const dnsText =
        method === 'POST' || textChange === null
          ? null
          : textChange === 'padded'
            ? Buffer.from(bytes).toString('base64')
            : textChange === 'standard alphabet'
              ? Buffer.from(bytes).toString('base64').replace(/=+$/, '')
              : textChange === 'empty'
                ? ''
                : garbage || base64url + '!';
      // A GET cannot carry the 70,000-byte message in a URL: cut to 60,000, still past the head limit (431).
      const tooLongForUrl = method === 'GET' && base64url.length > 100_000;
      return { method, bytes: tooLongForUrl ? bytes.slice(0, 60_000) : bytes, dnsText, contentType, mutation: textChange ? `${mutation}, dns ${textChange}` : mutation };
    });
}

/** Sends one DoH case; answers what is wrong with the reply, or null. */
export async function runDohCase(origin: string, c: DohCase, answered: (answer: string) => void = () => undefined): Promise<string | null> {
  let response: Response;
  try {
    if (c.method === 'GET') {
      const url = new URL(`${origin}/dns-query`);
      url.searchParams.set('dns', c.dnsText ?? Buffer.from(c.bytes).toString('base64url'));
      response = await fetch(url);
    } else {
      response = await fetch(`${origin}/dns-query`, { method: 'POST', headers: c.contentType === null ? {} : { 'content-type': c.contentType }, body: new Uint8Array(c.bytes) });
    }
  } catch (error) {
    return `request failed: ${(error as Error).message} ${(error as { cause?: Error }).cause?.message ?? ''}`;
  }
  const body = Buffer.from(await response.arrayBuffer());
  answered(`${c.method}→${response.status}`);
  if (response.status >= 500) return `${response.status}: ${body.toString('utf8').slice(0, 300)}`;
  if (response.status >= 400) return errorBodyProblem(response.status, body.toString('utf8'));
  if (response.headers.get('content-type') !== 'application/dns-message') return `${response.status} with content-type ${response.headers.get('content-type')}`;
  try {
    dnsPacket.decode(body);
  } catch (error) {
    return `${response.status} whose body is not a DNS message dns-packet reads: ${(error as Error).message}`;
  }
  return null;
}

export function describeDohCase(c: DohCase): string {
  const hex = Buffer.from(c.bytes.slice(0, 80)).toString('hex');
  return `${c.method} ${c.mutation} content-type=${JSON.stringify(c.contentType)} dns=${JSON.stringify(c.dnsText?.slice(0, 60) ?? null)} bytes(${c.bytes.length})=${hex}${c.bytes.length > 80 ? '…' : ''}`;
}
