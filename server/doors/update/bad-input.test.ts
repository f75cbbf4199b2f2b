/**
 * What no tool sends on purpose, sent byte by byte to the running name server: a stale signature, a replay, a
 * truncated TSIG, broken sections, and a fuzz of signed messages with random sections. Each gets the protocol's
 * answer, nothing is written, and the server keeps answering.
 */
import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dig } from '../../../test/support/bind.ts';
import { TEST_KEYS, testClient } from '../../../test/support/client.ts';
import { asTsigKey, rcodeOf, sendTcp, sendUdp, signed, tsigKey, unparkedZone, updateMessage, type TsigForm } from '../../../test/support/dns-update.ts';
import { startTestService, type TestService } from '../../../test/support/test-service.ts';
import { nameWire } from '../../dns-server/wire-names.ts';
import { verifyTsig } from '../../dns-server/tsig.ts';
import { MalformedUpdate, readUpdate } from './message.ts';
import { NotInZone, operationsOf, prerequisitesOf, Unwritable } from './translate.ts';

const [OWNER] = TEST_KEYS;
const ZONE = 'bad-input.com';
const IN = 1;
const [FORMERR, REFUSED, NOTAUTH, NOTZONE] = [1, 5, 9, 10];
/**
 * What a signed UPDATE may be answered (RFC 2136 §3, RFC 8945 §5.2): NOERROR, FORMERR, NXDOMAIN, REFUSED, YXDOMAIN,
 * YXRRSET, NXRRSET, NOTAUTH (bytes after the sections shift the TSIG record: a key name none of ours), NOTZONE.
 */
const PROTOCOL_ANSWERS = [0, FORMERR, 3, REFUSED, 6, 7, 8, NOTAUTH, NOTZONE];
let service: TestService;
let port: number;
let key: TsigForm;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0', DNS_UDP_THREADS: '1' });
  const client = testClient(service);
  await unparkedZone(service, client, OWNER, ZONE);
  key = (await tsigKey(client, await client.signIn(OWNER), { zones: [ZONE] })).tsig;
  port = service.dns!.port;
});
afterAll(() => service.destroy());

const txt = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
const add = (name: string, text: string) => updateMessage(ZONE, [], [{ name: `${name}.${ZONE}`, type: 16, klass: IN, ttl: 60, data: txt(text) }], 0x4242);
const serial = async () => Number((await dig(port, ['+short', ZONE, 'SOA'])).split(' ')[2]);
const edeOf = (answer: Buffer) => {
  const opt = dnsPacket.decode(answer).additionals?.find((a) => a.type === 'OPT') as { options?: Array<{ code: number; data: Buffer }> } | undefined;
  const ede = opt?.options?.find((o) => o.code === 15);
  return ede ? { code: ede.data.readUInt16BE(0), text: ede.data.subarray(2).toString() } : null;
};

describe('bad input over the wire', () => {
  it('answers a signature outside the fudge with NOTAUTH/BADTIME, signed, with the server’s time', async () => {
    const now = Math.floor(Date.now() / 1000);
    const request = signed(add('late', 'x'), key, now - 400);
    const answer = await sendUdp(port, request);
    expect(rcodeOf(answer)).toBe(NOTAUTH);
    const requestMac = (verifyTsig(request, [asTsigKey(key)], now - 400) as { mac: Buffer }).mac;
    // Signed, over the request's MAC (checked at the client's time, which Time Signed carries)…
    expect(verifyTsig(answer, [asTsigKey(key)], now - 400, requestMac).kind).toBe('ok');
    // …with TSIG error 18 and the server's time in Other Data (its last 6 bytes, after Error and Other Len).
    expect(answer.readUInt16BE(answer.length - 10)).toBe(18);
    expect(answer.readUInt16BE(answer.length - 8)).toBe(6);
    const other = answer.subarray(answer.length - 6);
    expect(Math.abs(other.readUIntBE(0, 6) - now)).toBeLessThan(5);
  });

  it('answers a key name that is none of this service’s (bytes any sender chose, NUL included) with NOTAUTH/BADKEY', async () => {
    for (const keyName of ['nfk-\u0000\u0000\u0000.', 'no-such-key.', `nfk-${'0'.repeat(36)}.`]) {
      const answer = await sendUdp(port, signed(add('stranger', 'x'), { ...key, keyName }));
      expect(rcodeOf(answer), keyName).toBe(NOTAUTH);
      expect(answer.readUInt16BE(answer.length - 4), keyName).toBe(17);
    }
  });

  it('refuses a replayed message (REFUSED), applying it once', async () => {
    const before = await serial();
    const request = signed(add('once', 'x'), key);
    expect(rcodeOf(await sendUdp(port, request))).toBe(0);
    const replay = await sendTcp(port, request);
    expect(rcodeOf(replay)).toBe(REFUSED);
    expect(edeOf(replay)?.text).toContain('received before');
    expect(await serial()).toBe(before + 1);
  });

  it('answers broken sections with FORMERR, a truncated TSIG too, and writes nothing', async () => {
    const before = await serial();
    const good = add('broken', 'x');
    const twoZones = Buffer.from(good);
    twoZones.writeUInt16BE(2, 4);
    const notSoa = Buffer.concat([good.subarray(0, 12), nameWire(ZONE), Buffer.from([0, 1, 0, 1]), good.subarray(12 + nameWire(ZONE).length + 4)]);
    const anyWithData = updateMessage(ZONE, [], [{ name: `x.${ZONE}`, type: 16, klass: 255, data: txt('x') }]);
    const prereqTtl = updateMessage(ZONE, [{ name: `x.${ZONE}`, type: 1, klass: 255, ttl: 5 }], []);
    const claimsMore = Buffer.from(good);
    claimsMore.writeUInt16BE(2, 8);
    for (const message of [twoZones, notSoa, anyWithData, prereqTtl, claimsMore]) expect(rcodeOf(await sendUdp(port, signed(message, key)))).toBe(FORMERR);
    const truncated = signed(good, key).subarray(0, -9);
    expect(rcodeOf(await sendTcp(port, truncated))).toBe(FORMERR);
    expect(rcodeOf(await sendUdp(port, signed(updateMessage(ZONE, [], [{ name: 'x.elsewhere.com', type: 16, klass: IN, ttl: 60, data: txt('x') }]), key)))).toBe(NOTZONE);
    expect(await serial()).toBe(before);
  });

  it('takes a fuzz of signed messages with random sections: each answered, nothing written, the server still answering', async () => {
    const before = await serial();
    const header = updateMessage(ZONE, [], []);
    const answers = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 120 }), fc.nat(3), fc.nat(3), fc.boolean(), async (body, prerequisites, updates, tcp) => {
        const message = Buffer.concat([header, Buffer.from(body)]);
        message.writeUInt16BE(prerequisites, 6);
        message.writeUInt16BE(updates, 8);
        const answer = await (tcp ? sendTcp : sendUdp)(port, signed(message, key));
        answers.add(rcodeOf(answer));
        expect(answer.readUInt16BE(0)).toBe(message.readUInt16BE(0));
        // Inside the property, so that fast-check names the message (and its seed) that was answered otherwise.
        expect(PROTOCOL_ANSWERS, `rcode ${rcodeOf(answer)} for ${message.toString('hex')}`).toContain(rcodeOf(answer));
      }),
      { numRuns: 150 },
    );
    // Random bytes mostly make broken sections (FORMERR), a record outside the zone or the key (NOTZONE, REFUSED);
    // a name that points back at the zone's (0xC00C) with a class of NONE or ANY is a prerequisite, answered with
    // its own rcode. Never SERVFAIL, never silence, and nothing written: a prerequisite fails or the update is refused.
    expect(answers.has(FORMERR)).toBe(true);
    expect(await serial()).toBe(before);
  });
});

describe('the UPDATE reader on any bytes', () => {
  it('reads or refuses (FORMERR, NOTZONE, a refusal naming the record), never anything else', () => {
    const known = (error: unknown) => error instanceof MalformedUpdate || error instanceof NotInZone || error instanceof Unwritable;
    const good = add('fuzz', 'x');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), fc.nat(good.length - 1), fc.integer({ min: 1, max: 255 }), (bytes, at, flip) => {
        const mutated = Buffer.from(good);
        mutated[at] ^= flip;
        for (const message of [Buffer.from(bytes), mutated, Buffer.concat([good.subarray(0, 12 + nameWire(ZONE).length + 4), Buffer.from(bytes)])]) {
          try {
            const read = readUpdate(message);
            prerequisitesOf(read);
            operationsOf(read);
          } catch (error) {
            if (!known(error)) throw error;
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
});
