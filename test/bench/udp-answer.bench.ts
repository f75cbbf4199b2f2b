/**
 * `npm run bench:udp-answer`: what a DNS cookie adds to a UDP thread's answer from the shared table, in-process (no
 * socket, no kernel): the look-up, the answer copied into the reply buffer and the client's cookie answered into it
 * (udp-answer.cjs, the code udp-thread.cjs runs per datagram), for EDNS queries without and with a client cookie,
 * in batches of 64 as the batched thread takes them. With BENCH_BASE_REF=<git ref>, the same path as that ref's
 * udp-thread.cjs ran it (its cookies.cjs and answer-table.cjs, the query copied out without its cookie, the clock
 * read per answer, the cookie appended from a scratch buffer) is timed in the same run, alternately, for the ratio.
 * bench:dns's on/off verdict is the whole service's (kernel included); this isolates the JavaScript the cookie adds.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as dnsPacket from 'dns-packet';
import { packetCache } from '../../server/dns-server/packet-cache.ts';

type Cookies = {
  OPTION_SIZE: number;
  MALFORMED: number;
  NONE: number;
  cookieSecrets(master: Buffer): unknown;
  optOf(q: Buffer, n: number): number;
  findCookie(m: Buffer, at: number, rdata: number, n: number): number;
  withoutCookie(q: Buffer, n: number, opt: number, option: number, out: Buffer): number;
  answerCookie(secrets: unknown, m: Buffer, option: number, ip: Buffer, now: number, out: Buffer, at: number): boolean;
  appendCookie(out: Buffer, length: number, cookie: Buffer, at: number): number;
  sockaddrBytes(addr: Buffer): Buffer;
};
type Table = { udpLength: number; udpAt: number; bytes: Buffer };
type TableModule = { openTable(buffer: SharedArrayBuffer): Table; find(t: Table, q: Buffer, n: number): boolean; unchanged(t: Table): boolean; markAsked(t: Table): void };
type Reader = { cookieAt: number; proven: boolean };
type AnswerModule = { answerReader(table: Table, secrets: unknown): Reader; find(r: Reader, q: Buffer, n: number): boolean; answerInto(r: Reader, q: Buffer, ip: Buffer | null, now: number, out: Buffer): number };

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const here = createRequire(import.meta.url);
const ROUNDS = 7;
const BATCHES = Number(process.env.BENCH_UDP_ANSWER_BATCHES ?? 20_000);
const BATCH = 64;
const zone = 'bench-cookie.test';
const names = Array.from({ length: 16 }, (_, i) => `host${i}.${zone}`);

/** EDNS's OPT record, no option (dns-packet's own shape for encoding). */
const OPT = { type: 'OPT', name: '.', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] } as dnsPacket.Answer;
const withEdns = (name: string) =>
  Buffer.from(dnsPacket.encode({ id: 7, type: 'query', flags: dnsPacket.RECURSION_DESIRED, questions: [{ name, type: 'A' }], additionals: [OPT] }));
/** The same query with a client cookie (8 bytes) as its OPT's only option, as dnsperf -E 10:… and resolvers send it. */
function withCookie(name: string) {
  const plain = withEdns(name);
  const option = Buffer.from([0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]);
  const q = Buffer.concat([plain, option]);
  q.writeUInt16BE(q.readUInt16BE(plain.length - 2) + option.length, plain.length - 2);
  return q;
}
const answerOf = (name: string) =>
  Buffer.from(
    dnsPacket.encode({
      id: 7,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER,
      questions: [{ name, type: 'A' }],
      answers: [{ name, type: 'A', ttl: 300, data: '192.0.2.1' }],
      additionals: [OPT],
    }),
  );

/** The ref's modules, loaded from a copy of its files (their own instances, beside this checkout's). */
function baseModules(ref: string) {
  const dir = mkdtempSync(join(tmpdir(), 'udp-answer-base-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const file of ['cookies.cjs', 'answer-table.cjs', 'udp-rrl.cjs']) writeFileSync(join(dir, file), execFileSync('git', ['-C', ROOT, 'show', `${ref}:server/dns-server/${file}`]));
  const load = createRequire(join(dir, 'x.cjs'));
  return { cookies: load('./cookies.cjs') as Cookies, table: load('./answer-table.cjs') as TableModule, dir };
}

const cookies = here('../../server/dns-server/cookies.cjs') as Cookies;
const tables = here('../../server/dns-server/answer-table.cjs') as TableModule;
const answers = here('../../server/dns-server/udp-answer.cjs') as AnswerModule;
const master = Buffer.alloc(32, 9);

// One table, written as the main thread writes it: each question keyed as server.ts keys it (without the cookie).
const cache = packetCache<undefined>([], 1 << 20);
const key = Buffer.alloc(512);
for (const name of names) {
  const q = withCookie(name);
  const opt = cookies.optOf(q, q.length);
  const option = cookies.findCookie(q, opt + 11, q.readUInt16BE(opt + 9), q.length);
  const answer = answerOf(name);
  cache.set(Buffer.from(key.subarray(0, cookies.withoutCookie(q, q.length, opt, option, key))), { udp: answer, full: answer, zone }, cache.begin());
  cache.set(withEdns(name), { udp: answer, full: answer, zone }, cache.begin());
}
const queries = { off: names.map(withEdns), on: names.map(withCookie) };
const sockaddr = Buffer.from([2, 0, 0x30, 0x39, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const out = Buffer.alloc(1232);

/** One path: answers BATCHES × 64 queries of `side`; ns per answer. `answerOne` answers query q (-1: a miss). */
type Path = { batch(): void; answerOne(q: Buffer): number };
function time(path: Path, side: 'off' | 'on') {
  const qs = queries[side];
  let sum = 0;
  const start = process.hrtime.bigint();
  for (let b = 0; b < BATCHES; b += 1) {
    path.batch();
    for (let i = 0; i < BATCH; i += 1) sum += path.answerOne(qs[(b + i) & 15]);
  }
  const ns = Number(process.hrtime.bigint() - start) / (BATCHES * BATCH);
  if (sum <= 0) throw new Error(`${side}: no answer found`);
  return ns;
}

function currentPath(): Path {
  const reader = answers.answerReader(tables.openTable(cache.table), cookies.cookieSecrets(master));
  let now = 0;
  return {
    batch: () => (now = Math.floor(Date.now() / 1000)),
    answerOne(q) {
      if (!answers.find(reader, q, q.length)) return -1;
      return answers.answerInto(reader, q, reader.cookieAt >= 0 ? cookies.sockaddrBytes(sockaddr) : null, now, out);
    },
  };
}

/** The packet cache's rule as the base ref's udp-thread.cjs checked it first (the same code as udp-answer.cjs's). */
function cacheable(q: Buffer, n: number) {
  if (n < 17 || n > 512) return false;
  if ((q[2] & 0x80) !== 0 || (q[2] & 0x78) !== 0) return false;
  if (q[4] !== 0 || q[5] !== 1 || q[6] !== 0 || q[7] !== 0 || q[8] !== 0 || q[9] !== 0 || q[10] !== 0 || q[11] > 1) return false;
  if (q[11] === 0) return true;
  let offset = 12;
  while (offset < n && q[offset] !== 0) offset += q[offset] + 1;
  offset += 5;
  if (offset + 3 > n) return false;
  return q[offset] === 0 && q[offset + 1] === 0 && q[offset + 2] === 41;
}

/** The path as the base ref's udp-thread.cjs ran it (find, copyAnswer, cookieFor, appendCookie; counting left out on both sides). */
function basePath(base: ReturnType<typeof baseModules>): Path {
  const c = base.cookies;
  const t = base.table;
  const table = t.openTable(cache.table);
  const secrets = c.cookieSecrets(master);
  const keyScratch = Buffer.alloc(512);
  const cookieScratch = Buffer.alloc(24);
  let cookieAt = -1;
  const find = (q: Buffer, n: number) => {
    cookieAt = -1;
    if (!cacheable(q, n)) return false;
    const opt = c.optOf(q, n);
    if (opt < 0) return t.find(table, q, n);
    const option = c.findCookie(q, opt + 11, q.readUInt16BE(opt + 9), n);
    if (option === c.MALFORMED) return false;
    if (option === c.NONE) return t.find(table, q, n);
    cookieAt = option;
    return t.find(table, keyScratch, c.withoutCookie(q, n, opt, option, keyScratch));
  };
  return {
    batch: () => {},
    answerOne(q) {
      if (!find(q, q.length)) return -1;
      const length = table.udpLength;
      if (length + (cookieAt >= 0 ? c.OPTION_SIZE : 0) > out.length) return -1;
      table.bytes.copy(out, 0, table.udpAt, table.udpAt + length);
      if (!t.unchanged(table)) return -1;
      t.markAsked(table);
      out[0] = q[0];
      out[1] = q[1];
      if (cookieAt >= 0) c.answerCookie(secrets, q, cookieAt, c.sockaddrBytes(sockaddr), Math.floor(Date.now() / 1000), cookieScratch, 0);
      return cookieAt >= 0 ? c.appendCookie(out, length, cookieScratch, 0) : length;
    },
  };
}

const ref = process.env.BENCH_BASE_REF;
const base = ref ? baseModules(ref) : null;
const paths: Array<[string, Path]> = [['this checkout', currentPath()], ...(base ? [[`${ref}`, basePath(base)] as [string, Path]] : [])];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const samples = new Map<string, number[]>();
for (let round = 0; round < ROUNDS + 1; round += 1) {
  for (const [label, path] of paths) {
    for (const side of ['off', 'on'] as const) {
      const ns = time(path, side);
      // The first round warms the JIT up.
      if (round > 0) samples.set(`${label} ${side}`, [...(samples.get(`${label} ${side}`) ?? []), ns]);
    }
  }
}
console.log(`A UDP thread's answer from the table, in-process, ${BATCHES * BATCH} answers a run, median of ${ROUNDS} runs (ns per answer):`);
const added = new Map<string, number>();
for (const [label] of paths) {
  const off = median(samples.get(`${label} off`) ?? []);
  const on = median(samples.get(`${label} on`) ?? []);
  added.set(label, on - off);
  console.log(`  ${label.padEnd(14)} without a cookie ${off.toFixed(0)} ns, with a client cookie ${on.toFixed(0)} ns: the cookie adds ${(on - off).toFixed(0)} ns`);
}
if (base && ref) {
  console.log(`  the cookie's cost, this checkout / ${ref}: ${((added.get('this checkout') ?? 0) / (added.get(ref) ?? 1)).toFixed(2)}`);
  rmSync(base.dir, { recursive: true, force: true });
}
