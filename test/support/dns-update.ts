/**
 * DNS UPDATE (RFC 2136) from the test side: Debian's real clients (`nsupdate` from bind9-dnsutils, `knsupdate` from
 * knot-dnsutils) run on a script, and a raw client for what no tool sends on purpose (a stale signature, a replay,
 * broken bytes): messages written byte by byte, signed with the service's own TSIG code, over UDP or TCP.
 */
import * as dnsPacket from 'dns-packet';
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { nameWire } from '../../server/dns-server/wire-names.ts';
import { signRequest, type TsigKey } from '../../server/dns-server/tsig.ts';
import { addressOf, type TestClient } from './client.ts';
import type { TestService } from './test-service.ts';
import type { Hex } from 'viem';

const UPDATE_TOOLS = {
  nsupdate: { path: process.env.NSUPDATE ?? '/usr/bin/nsupdate', pkg: 'bind9-dnsutils' },
  knsupdate: { path: process.env.KNSUPDATE ?? '/usr/bin/knsupdate', pkg: 'knot-dnsutils' },
} as const;
export type UpdateTool = keyof typeof UPDATE_TOOLS;

/** What is missing to run the UPDATE clients, as an install hint; null when all are there. */
export function updateToolsMissing(): string | null {
  const missing = (Object.keys(UPDATE_TOOLS) as UpdateTool[]).filter((t) => !existsSync(UPDATE_TOOLS[t].path));
  if (missing.length === 0) return null;
  const pkgs = [...new Set(missing.map((t) => UPDATE_TOOLS[t].pkg))].join(' ');
  return `Not found: ${missing.map((t) => UPDATE_TOOLS[t].path).join(', ')}. Install Debian's ${pkgs} (apt-get install -y ${pkgs}).`;
}

export interface TsigForm {
  keyName: string;
  algorithm: string;
  secret: string;
}

/** Runs `tool` on `script` (its own commands: server, zone, prereq, update, send), signed with `key` when given. Answers its exit code and output. */
export async function runUpdateTool(tool: UpdateTool, script: string, key?: TsigForm | null, options: { tcp?: boolean; debug?: boolean } = {}): Promise<{ code: number; output: string }> {
  const args = [...(key ? ['-y', `hmac-sha256:${key.keyName}:${key.secret}`] : []), ...(options.tcp ? ['-v'] : []), ...(options.debug ? ['-d'] : [])];
  const running = execFile(UPDATE_TOOLS[tool].path, args, { encoding: 'utf8', timeout: 15_000 });
  running.stdin?.end(script);
  let output = '';
  running.stdout?.on('data', (c: string) => void (output += c));
  running.stderr?.on('data', (c: string) => void (output += c));
  const code = await new Promise<number>((done) => running.once('exit', (c) => done(c ?? -1)));
  return { code, output };
}

/** A scoped key with its TSIG form, made by the wallet `key` through the API. */
export async function tsigKey(client: TestClient, token: string, scope: { zones: string[]; names?: string[]; types?: string[]; access?: 'read' | 'write'; cidrs?: string[] }): Promise<{ id: string; tsig: TsigForm }> {
  const body = { label: 'update', scope: { names: [], types: [], access: 'write', expiresAt: null, cidrs: [], ...scope }, tsig: true };
  const created = await client.call('createApiKey', { body, headers: client.withToken(token) });
  if (created.status !== 200) throw new Error(`createApiKey: ${JSON.stringify(created.body)}`);
  return { id: created.body.id, tsig: created.body.tsig };
}

/** A domain registered to `owner`, unparked, with no records yet. */
export async function unparkedZone(service: TestService, client: TestClient, owner: Hex, zone: string): Promise<void> {
  await service.services.ownership.mint({ name: zone, to: addressOf(owner), chainId: 31337, years: 1, now: new Date() });
  const reply = await client.signed(owner, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false });
  if (reply.status !== 200) throw new Error(`unpark: ${JSON.stringify(reply.body)}`);
}

export const asTsigKey = (form: TsigForm): TsigKey => ({ name: form.keyName.replace(/\.$/, ''), secret: Buffer.from(form.secret, 'base64') });

export interface RawRecord {
  name: string;
  type: number;
  klass: number;
  ttl?: number;
  data?: Buffer;
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u32 = (n: number) => Buffer.from([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const recordWire = (r: RawRecord) => Buffer.concat([nameWire(r.name), u16(r.type), u16(r.klass), u32(r.ttl ?? 0), u16(r.data?.length ?? 0), r.data ?? Buffer.alloc(0)]);

/** An UPDATE message for `zone`, its sections as given, byte by byte (no library normalises what a test means to send). */
export function updateMessage(zone: string, prerequisites: RawRecord[], updates: RawRecord[], id = 0x1234): Buffer {
  const header = Buffer.concat([u16(id), u16(5 << 11), u16(1), u16(prerequisites.length), u16(updates.length), u16(0)]);
  return Buffer.concat([header, nameWire(zone), u16(6), u16(1), ...prerequisites.map(recordWire), ...updates.map(recordWire)]);
}

/** Signs a message with a key's TSIG form at `time` (Unix seconds; now by default). */
export const signed = (message: Buffer, form: TsigForm, time?: number) => signRequest(message, asTsigKey(form), time).message;

/** Sends one message over UDP and answers the first reply (or throws after `timeoutMs`). */
export function sendUdp(port: number, message: Buffer, timeoutMs = 3000): Promise<Buffer> {
  const socket = createSocket('udp4');
  return new Promise<Buffer>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('no answer over UDP')), timeoutMs);
    socket.once('message', (reply) => {
      clearTimeout(timer);
      done(reply);
    });
    socket.send(message, port, '127.0.0.1');
  }).finally(() => socket.close());
}

/** Sends one message over TCP (length-prefixed) and answers the first reply. */
export function sendTcp(port: number, message: Buffer, timeoutMs = 3000): Promise<Buffer> {
  return new Promise<Buffer>((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat([u16(message.length), message])));
    let got = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      fail(new Error('no answer over TCP'));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        clearTimeout(timer);
        socket.destroy();
        done(got.subarray(2, 2 + got.readUInt16BE(0)));
      }
    });
    socket.on('error', fail);
  });
}

export const rcodeOf = (answer: Buffer) => answer[3] & 0x0f;

/** What `dig +short` prints for a question, asked in this process (no dig started per question): A, AAAA, TXT, MX, NS and SOA data. */
export async function shortAnswer(port: number, name: string, type: 'A' | 'AAAA' | 'TXT' | 'MX' | 'NS' | 'SOA'): Promise<string[]> {
  const answer = dnsPacket.decode(await sendUdp(port, dnsPacket.encode({ id: 7, type: 'query', questions: [{ name, type }] })));
  const text = (a: dnsPacket.Answer): string => {
    const data = (a as { data: unknown }).data;
    if (a.type === 'TXT') return (data as Buffer[]).map((b) => `"${b.toString()}"`).join(' ');
    if (a.type === 'MX') return `${(data as { preference: number }).preference} ${(data as { exchange: string }).exchange}.`;
    if (a.type === 'NS') return `${data as string}.`;
    if (a.type === 'SOA') {
      const soa = data as { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number };
      return `${soa.mname}. ${soa.rname}. ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`;
    }
    return String(data);
  };
  return (answer.answers ?? []).filter((a) => a.type === type).map(text).sort();
}
