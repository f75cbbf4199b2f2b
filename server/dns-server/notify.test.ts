import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { startNotifier, type Notifier } from './notify.ts';
import { parseTsigKeys, verifyTsig } from './tsig.ts';

const KEY = parseTsigKeys([`notify-key:hmac-sha256:${Buffer.from('thirty-two bytes of test secret!').toString('base64')}`])[0];
const open: Array<Socket | Notifier> = [];
afterEach(async () => {
  for (const o of open.splice(0)) 'answered' in o ? await o.close() : o.close();
});

/** A secondary's UDP port that records each NOTIFY and answers the first `answer` of them. */
async function secondary(answer: number) {
  const socket = createSocket('udp4');
  open.push(socket);
  const received: Buffer[] = [];
  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    received.push(message);
    if (received.length <= answer) {
      const reply = Buffer.from(message.subarray(0, 12 + message.subarray(12).indexOf(0) + 5));
      reply[2] |= 0x80;
      reply.writeUInt16BE(0, 10);
      socket.send(reply, remote.port, remote.address);
    }
  });
  await new Promise<void>((ready) => socket.bind(0, '127.0.0.1', () => ready()));
  return { port: (socket.address() as { port: number }).port, received };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('NOTIFY to secondaries (RFC 1996)', () => {
  it('sends a signed NOTIFY for the zone, stops once answered, and retries one that is not answered five times in all', async () => {
    const answering = await secondary(1);
    const silent = await secondary(0);
    const notifier = await startNotifier([`127.0.0.1:${answering.port}`, `127.0.0.1:${silent.port}`], KEY, 20);
    open.push(notifier);
    notifier.notify('notified.com');
    // 20 + 40 + 80 + 160 ms between the five tries; then the last one's wait (320 ms) passes and nothing more is sent.
    for (const deadline = Date.now() + 5000; silent.received.length < 5 && Date.now() < deadline; ) await settle(20);
    await settle(700);
    expect(answering.received).toHaveLength(1);
    expect(silent.received).toHaveLength(5);
    expect(notifier.answered).toBe(1);
    const packet = dnsPacket.decode(answering.received[0]);
    expect(((packet.flags ?? 0) >> 11) & 0xf).toBe(4);
    expect(packet.questions).toEqual([{ name: 'notified.com', type: 'SOA', class: 'IN' }]);
    expect(verifyTsig(answering.received[0], [KEY])).toMatchObject({ kind: 'ok' });
    expect(verifyTsig(answering.received[0], parseTsigKeys([`notify-key:hmac-sha256:${Buffer.from('another secret').toString('base64')}`]))).toMatchObject({ kind: 'error' });
  });
});
