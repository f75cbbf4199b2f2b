import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { startNotifier, type Notifier } from './notify.ts';
import { parseTsigKeys, signAnswer, verifyTsig } from './tsig.ts';

const KEY = parseTsigKeys([`notify-key:hmac-sha256:${Buffer.from('thirty-two bytes of test secret!').toString('base64')}`])[0];
const open: Array<Socket | Notifier> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** A secondary's UDP port that records each NOTIFY and answers the first `answer` of them, signed with `key`. */
async function secondary(answer: number, key = KEY, host = '127.0.0.1') {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  open.push(socket);
  const received: Buffer[] = [];
  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    received.push(message);
    if (received.length <= answer) {
      const reply = Buffer.from(message.subarray(0, 12 + message.subarray(12).indexOf(0) + 5));
      reply[2] |= 0x80;
      reply.writeUInt16BE(0, 10);
      const check = verifyTsig(message, [KEY]);
      const [signed] = check.kind === 'ok' ? signAnswer([reply], key, check.mac) : [reply];
      socket.send(signed, remote.port, remote.address);
    }
  });
  await new Promise<void>((ready) => socket.bind(0, host, () => ready()));
  return { port: (socket.address() as { port: number }).port, received };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('NOTIFY to secondaries (RFC 1996)', () => {
  it('sends a signed NOTIFY for the zone, stops once answered, and retries one that is not answered five times in all', async () => {
    const answering = await secondary(99);
    const silent = await secondary(0);
    // Answers every NOTIFY, but signed with a key that is not ours: not an answer.
    const forger = await secondary(99, parseTsigKeys([`notify-key:hmac-sha256:${Buffer.from('a forger').toString('base64')}`])[0]);
    const notifier = await startNotifier([`127.0.0.1:${answering.port}`, `127.0.0.1:${silent.port}`, `127.0.0.1:${forger.port}`], KEY, 100);
    open.push(notifier);
    notifier.notify('notified.com');
    // 100, 200, 400 and 800 ms between the five tries; a sixth would follow the fifth 1.6 s later: none does within 1 s.
    for (const deadline = Date.now() + 5000; (silent.received.length < 5 || forger.received.length < 5) && Date.now() < deadline; ) await settle(20);
    await settle(1000);
    // Answered at the first try (a second only if the answer was slower than 100 ms on a loaded machine).
    expect(answering.received.length).toBeGreaterThanOrEqual(1);
    expect(answering.received.length).toBeLessThanOrEqual(2);
    expect(silent.received).toHaveLength(5);
    expect(forger.received).toHaveLength(5);
    expect(notifier.answered).toBe(1);
    const packet = dnsPacket.decode(answering.received[0]);
    expect(((packet.flags ?? 0) >> 11) & 0xf).toBe(4);
    expect(packet.questions).toEqual([{ name: 'notified.com', type: 'SOA', class: 'IN' }]);
    expect(verifyTsig(answering.received[0], [KEY])).toMatchObject({ kind: 'ok' });
    expect(verifyTsig(answering.received[0], parseTsigKeys([`notify-key:hmac-sha256:${Buffer.from('another secret').toString('base64')}`]))).toMatchObject({ kind: 'error' });
  });

  it('sends an IPv6 secondary its NOTIFY over IPv6, beside an IPv4 one', async () => {
    const v6 = await secondary(99, KEY, '::1');
    const v4 = await secondary(99);
    const notifier = await startNotifier([`[::1]:${v6.port}`, `127.0.0.1:${v4.port}`], KEY, 100);
    open.push(notifier);
    notifier.notify('both.com');
    await expect.poll(() => notifier.answered).toBe(2);
    expect(dnsPacket.decode(v6.received[0]).questions).toEqual([{ name: 'both.com', type: 'SOA', class: 'IN' }]);
  });
});
