import { createSocket, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { signRequest, verifyTsig, type TsigKey } from './tsig.ts';

/**
 * NOTIFY (RFC 1996) to the secondaries in DNS_ALSO_NOTIFY whenever a zone's serial changes: told by the same
 * announcement that drops the zone's cached answers. Each NOTIFY is retried until the secondary answers it, at most
 * five tries, one, two, four and eight seconds apart. With several instances each one hears the announcement and
 * sends its own NOTIFY: harmless, a secondary only asks for the SOA again.
 */
const TRIES = 5;
const OPCODE_NOTIFY = 4;

export interface Notifier {
  notify(zone: string): void;
  close(): Promise<void>;
  /** NOTIFYs sent and answered, for tests and logs. */
  readonly sent: number;
  readonly answered: number;
}

function parseTarget(target: string): { host: string; port: number } {
  const at = target.lastIndexOf(':');
  return { host: target.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(target.slice(at + 1)) };
}

/** `retryMs`: the first wait for an answer, doubled at each try (tests shorten it). */
export async function startNotifier(targets: string[], key: TsigKey | undefined, retryMs = 1000): Promise<Notifier> {
  /** id -> what to stop when answered. */
  const pending = new Map<number, { timer: NodeJS.Timeout; zone: string; target: string; mac: Buffer | null }>();
  let sent = 0;
  let answered = 0;
  const onMessage = (message: Buffer) => {
    if (message.length < 4 || (message[2] & 0x80) === 0) return;
    const entry = pending.get(message.readUInt16BE(0));
    if (!entry) return;
    // With a key, only an answer signed with it counts (anyone could send an unsigned one); the NOTIFY is retried.
    if (key && entry.mac && verifyTsig(message, [key], undefined, entry.mac).kind !== 'ok') return;
    clearTimeout(entry.timer);
    pending.delete(message.readUInt16BE(0));
    answered += 1;
  };
  // One socket per address family the targets use: an IPv6 secondary ([::1]:53) is sent its NOTIFY from an IPv6 one.
  const open = async (type: 'udp4' | 'udp6') => {
    const socket: Socket = createSocket(type);
    socket.on('message', onMessage);
    socket.on('error', () => undefined);
    await new Promise<void>((ready) => socket.bind(0, () => ready()));
    return socket;
  };
  const ipv4 = await open('udp4');
  const ipv6 = targets.some((t) => isIP(parseTarget(t).host) === 6) ? await open('udp6') : null;

  const send = (zone: string, target: string, attempt: number) => {
    // A newer NOTIFY for the same zone and secondary replaces one still being retried.
    for (const [id, p] of pending) {
      if (p.zone === zone && p.target === target && attempt === 1) {
        clearTimeout(p.timer);
        pending.delete(id);
      }
    }
    let id = randomInt(0, 65536);
    while (pending.has(id)) id = (id + 1) % 65536;
    let message = dnsPacket.encode({ id, type: 'query', flags: (OPCODE_NOTIFY << 11) | 0x400, questions: [{ name: zone, type: 'SOA', class: 'IN' }] });
    let mac: Buffer | null = null;
    if (key) ({ message, mac } = signRequest(message, key));
    const { host, port } = parseTarget(target);
    sent += 1;
    (isIP(host) === 6 && ipv6 ? ipv6 : ipv4).send(message, port, host);
    const timer = setTimeout(() => {
      pending.delete(id);
      if (attempt < TRIES) send(zone, target, attempt + 1);
    }, retryMs * 2 ** (attempt - 1));
    timer.unref();
    pending.set(id, { timer, zone, target, mac });
  };

  return {
    notify(zone) {
      for (const target of targets) send(zone, target, 1);
    },
    async close() {
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
      await Promise.all([ipv4, ipv6].map((socket) => socket && new Promise<void>((done) => socket.close(() => done()))));
    },
    get sent() {
      return sent;
    },
    get answered() {
      return answered;
    },
  };
}
