import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** cookies.cjs as the UDP threads load it. */
const cookies = createRequire(import.meta.url)('./cookies.cjs') as {
  PERIOD_SECONDS: number;
  cookieSecrets(master: Buffer): { keyFor(period: number): Uint8Array };
  mintInto(secrets: unknown, client: Buffer, clientAt: number, ip: Buffer, now: number, out: Buffer, at: number): void;
  checkServerCookie(secrets: unknown, m: Buffer, clientAt: number, at: number, length: number, ip: Buffer, now: number): 'fresh' | 'worn' | false;
  answerCookie(secrets: unknown, m: Buffer, option: number, ip: Buffer, now: number, out: Buffer, at: number): boolean;
  addressBytes(address: string): Buffer;
};

/** One secret for every period, as RFC 9018's examples use. */
const fixed = (hex: string) => ({ keyFor: () => Buffer.from(hex, 'hex') });
const hex = (s: string) => Buffer.from(s, 'hex');

describe('DNS cookies (RFC 7873, RFC 9018)', () => {
  it('makes the server cookies of RFC 9018 Appendix A with SipHash-2-4 (npm siphash24), IPv4 and IPv6', () => {
    const vectors = [
      ['e5e973e5a6b2a43f48e7dc849e37bfcf', '2464c4abcf10c957', '198.51.100.100', 1559731985, '010000005cf79f111f8130c3eee29480'],
      ['e5e973e5a6b2a43f48e7dc849e37bfcf', '2464c4abcf10c957', '198.51.100.100', 1559734385, '010000005cf7a871d4a564a1442aca77'],
      ['e5e973e5a6b2a43f48e7dc849e37bfcf', 'fc93fc62807ddb86', '203.0.113.203', 1559734700, '010000005cf7a9acf73a7810aca2381e'],
      ['445536bcd2513298075a5d379663c962', '22681ab97d52c298', '2001:db8:220:1:59de:d0f4:8769:82b8', 1559741961, '010000005cf7c609a6bb79d16625507a'],
    ] as const;
    for (const [secret, client, ip, at, server] of vectors) {
      const out = Buffer.alloc(16);
      cookies.mintInto(fixed(secret), hex(client), 0, cookies.addressBytes(ip), at, out, 0);
      expect(out.toString('hex')).toBe(server);
    }
  });

  it('takes back the cookies of the examples (reserved bytes set by the client, an old secret) and no other', () => {
    const a3 = hex('fc93fc62807ddb8601abcdef5cf78f71a314227b6679ebf5');
    // A.3: the cookie the client returns carries reserved bytes of its own; they are part of the hash.
    expect(cookies.checkServerCookie(fixed('e5e973e5a6b2a43f48e7dc849e37bfcf'), a3, 0, 8, 16, cookies.addressBytes('203.0.113.203'), 0x5cf78f71 + 60)).toBe('fresh');
    expect(cookies.checkServerCookie(fixed('e5e973e5a6b2a43f48e7dc849e37bfcf'), a3, 0, 8, 16, cookies.addressBytes('203.0.113.204'), 0x5cf78f71 + 60)).toBe(false);
    const a4 = hex('22681ab97d52c298010000005cf7c57926556bd0934c72f8');
    const ip = cookies.addressBytes('2001:db8:220:1:59de:d0f4:8769:82b8');
    expect(cookies.checkServerCookie(fixed('dd3bdf9344b678b185a6f5cb60fca715'), a4, 0, 8, 16, ip, 0x5cf7c579 + 60)).toBe('fresh');
    expect(cookies.checkServerCookie(fixed('445536bcd2513298075a5d379663c962'), a4, 0, 8, 16, ip, 0x5cf7c579 + 60)).toBe(false);
    // An hour is the most a cookie lives, five minutes the most it may be ahead; past half an hour it is renewed.
    const check = (now: number) => cookies.checkServerCookie(fixed('dd3bdf9344b678b185a6f5cb60fca715'), a4, 0, 8, 16, ip, now);
    expect([check(0x5cf7c579 + 1801), check(0x5cf7c579 + 3600), check(0x5cf7c579 + 3601), check(0x5cf7c579 - 300), check(0x5cf7c579 - 301)]).toEqual(['worn', 'worn', false, 'fresh', false]);
  });

  it('rotates its secret every period without breaking a cookie handed out just before, on any instance with the same master', () => {
    const master = Buffer.alloc(32, 9);
    const one = cookies.cookieSecrets(master);
    const another = cookies.cookieSecrets(Buffer.from(master));
    const ip = cookies.addressBytes('192.0.2.53');
    const client = hex('0123456789abcdef');
    const rotation = 20_000 * cookies.PERIOD_SECONDS;
    const madeAt = rotation - 10;
    const cookie = Buffer.concat([client, Buffer.alloc(16)]);
    cookies.mintInto(one, client, 0, ip, madeAt, cookie, 8);
    // The secrets of two periods differ.
    expect(Buffer.from(one.keyFor(1)).equals(Buffer.from(one.keyFor(2)))).toBe(false);
    for (const secrets of [one, another]) {
      expect(cookies.checkServerCookie(secrets, cookie, 0, 8, 16, ip, madeAt + 20)).toBe('fresh');
      expect(cookies.checkServerCookie(secrets, cookie, 0, 8, 16, ip, madeAt + 3000)).toBe('worn');
    }
    // Another master (another service) does not take it.
    expect(cookies.checkServerCookie(cookies.cookieSecrets(Buffer.alloc(32, 1)), cookie, 0, 8, 16, ip, madeAt + 20)).toBe(false);
    // Answering: a fresh cookie is handed back as it came; a worn one is replaced by one made now.
    const option = Buffer.concat([Buffer.from([0, 10, 0, 24]), cookie]);
    const out = Buffer.alloc(24);
    expect(cookies.answerCookie(one, option, 0, ip, madeAt + 20, out, 0)).toBe(true);
    expect(out.equals(cookie)).toBe(true);
    expect(cookies.answerCookie(one, option, 0, ip, madeAt + 3000, out, 0)).toBe(true);
    expect(out.readUInt32BE(12)).toBe(madeAt + 3000);
    expect(cookies.answerCookie(one, option, 0, cookies.addressBytes('192.0.2.54'), madeAt + 20, out, 0)).toBe(false);
  });
});
