/**
 * The field's judges against the service's name server, in a lab of its own: run inside a fresh network namespace
 * (`unshare -n`, see field-judges.test.ts) where only loopback exists, so the service answers on 127.0.0.1:53 as
 * zonemaster expects and no tool can reach any other host. In it:
 * - the service (its DNS on 127.0.0.1:53) with an unsigned zone and three signed ones (ECDSA P-256 with NSEC, with
 *   NSEC3, and Ed25519), its name servers ns1/ns2.lab.test;
 * - BIND as the lab's root, `com.` and `test.` (127.0.0.2:53): the delegations, the glue of ns1/ns2.lab.test, the DS;
 * - BIND as the reference server of the same unsigned zone (127.0.0.3:53), loaded from the service's own AXFR;
 * - BIND as a resolver forwarding to the service through a relay that records the cookies each way (127.0.0.4/5);
 * and runs zonemaster-cli (delegated test, the lab's root as its hints), dnsviz probe + grok with the DS, ISC's EDNS
 * compliance cases with dig against the service and the reference BIND, and dig's cookie round trip. Prints one JSON
 * object with what each said; the test decides.
 */
import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as dnsPacket from 'dns-packet';
import { addressOf, TEST_KEYS, testClient } from '../support/client.ts';
import { startNamed } from '../support/name-servers.ts';
import { startTestService } from '../support/test-service.ts';

const run = promisify(execFile);

const [OWNER] = TEST_KEYS;
const SERVICE = '127.0.0.1';
const ROOT = '127.0.0.2';
const REFERENCE = '127.0.0.3';
const RESOLVER = '127.0.0.4';
const RELAY = '127.0.0.5';
const PLAIN = 'plain.com';
const SIGNED = 'signed.com';
/** The other choices (issue 49 item 5): NSEC3 with RFC 9276's parameters, and Ed25519 (algorithm 15), apart and together. */
const NSEC3 = 'nsec3.com';
const ED25519 = 'ed25519.com';
const ED25519_NSEC3 = 'ed25519-nsec3.com';
const SIGNING: Record<string, Record<string, unknown>> = {
  [SIGNED]: {},
  [NSEC3]: { algorithm: 13, denial: 'nsec3', nsec3OptOut: false },
  [ED25519]: { algorithm: 15, denial: 'nsec', nsec3OptOut: false },
  [ED25519_NSEC3]: { algorithm: 15, denial: 'nsec3', nsec3OptOut: false },
};
const dir = mkdtempSync(join(tmpdir(), 'namefi-judges-'));

/** A tool's output, whatever its exit status (zonemaster and grok exit non-zero when they find something). */
async function tool(file: string, args: string[], timeoutMs: number): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}${e.stdout || e.stderr ? '' : e.message}`;
  }
}

const dig = (server: string, args: string[]) => tool('/usr/bin/dig', [`@${server}`, '+time=2', '+tries=1', ...args], 10_000);

async function waitFor(server: string, zone: string) {
  for (let i = 0; i < 100; i += 1) {
    if ((await dig(server, ['+short', zone, 'SOA'])).trim().split(' ').length === 7) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${server} never answered the SOA of ${zone}`);
}

const RECORDS = (zone: string) => [
  { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 },
  { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 },
  { name: '@', type: 'MX', rdata: `10 mail.${zone}.`, ttl: 3600 },
  { name: 'mail', type: 'A', rdata: '192.0.2.25', ttl: 3600 },
  { name: '@', type: 'TXT', rdata: '"v=spf1 mx -all"', ttl: 3600 },
];

async function main() {
  const service = await startTestService({ DNS_PORT: '53', HOST: SERVICE, DNS_NAMESERVERS: 'ns1.lab.test,ns2.lab.test', DNS_UDP_THREADS: process.env.LAB_UDP_THREADS ?? '1' });
  const closers: Array<() => Promise<void>> = [() => service.destroy()];
  // Ended from outside (the test's time-out): the name servers are stopped all the same.
  process.once('SIGTERM', () => void Promise.all(closers.map((close) => close().catch(() => undefined))).finally(() => process.exit(1)));
  try {
    const client = testClient(service);
    const ds: Record<string, string> = {};
    for (const zone of [PLAIN, ...Object.keys(SIGNING)]) {
      await service.services.ownership.mint({ name: zone, to: addressOf(OWNER), chainId: 31337, years: 1, now: new Date() });
      await client.signed(OWNER, 'toggleDomainParking', { normalizedDomainName: zone, enableParking: false, overrideExistingRecords: false });
      const created = await client.signed(OWNER, 'batchCreateDnsRecords', { zoneName: zone, records: RECORDS(zone) });
      if (created.status !== 200) throw new Error(`records of ${zone}: ${JSON.stringify(created.body)}`);
    }
    for (const [zone, choices] of Object.entries(SIGNING)) {
      const signed = await client.signed(OWNER, 'toggleDnssec', { normalizedDomainName: zone, enabled: true, ...choices });
      if (signed.status !== 200) throw new Error(`toggleDnssec ${zone}: ${JSON.stringify(signed.body)}`);
      ds[zone] = (signed.body as { dsRecords: string[] }).dsRecords[0];
    }
    await startLab(Object.values(ds), closers);
    if (process.env.LAB_HOLD) {
      // For trying tools by hand: nsenter -t <pid> -n <tool>.
      process.stderr.write(`lab ready, pid ${process.pid}, DS ${JSON.stringify(ds)}\n`);
      await new Promise((done) => setTimeout(done, Number(process.env.LAB_HOLD) * 1000));
    }
    // zonemaster for every zone at once (a process each, mostly waiting on the network); dnsviz meanwhile, one probe
    // of every signed zone (three probes at once found no delegation NS in the parent: dnsviz's own doing).
    const zones = [PLAIN, ...Object.keys(SIGNING)];
    const timed = async <T>(what: string, work: () => Promise<T>) => {
      const start = Date.now();
      const result = await work();
      if (process.env.LAB_TIMES) process.stderr.write(`${what}: ${((Date.now() - start) / 1000).toFixed(1)} s\n`);
      return result;
    };
    const [judged, viewed] = await Promise.all([Promise.all(zones.map((zone) => timed(`zonemaster ${zone}`, () => zonemaster(zone)))), timed('dnsviz', () => dnsviz(ds))]);
    const results = {
      ds,
      zonemaster: Object.fromEntries(zones.map((zone, i) => [zone, judged[i]])),
      dnsviz: viewed,
      compliance: await compliance(),
      digCookie: await digCookie(),
      resolverCookies: await resolverCookies(),
    };
    process.stdout.write(`${JSON.stringify(results)}\n`);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The lab's root, com. and test. (127.0.0.2) and the reference BIND serving the service's own unsigned zone (127.0.0.3). */
async function startLab(ds: string[], closers: Array<() => Promise<void>>): Promise<void> {
  const soa = (zone: string) => `${zone} 86400 IN SOA a.lab-root.test. hostmaster.test. 1 14400 3600 1209600 300\n${zone} 86400 IN NS a.lab-root.test.\n`;
  const zones: Array<[string, string]> = [
    ['.', `${soa('.')}com. 86400 IN NS a.lab-root.test.\ntest. 86400 IN NS a.lab-root.test.\na.lab-root.test. 86400 IN A ${ROOT}\n`],
    ['com.', `${soa('com.')}${[PLAIN, ...Object.keys(SIGNING)].map((z) => `${z}. 86400 IN NS ns1.lab.test.\n${z}. 86400 IN NS ns2.lab.test.\n`).join('')}${ds.join('\n')}\n`],
    ['test.', `${soa('test.')}a.lab-root.test. 86400 IN A ${ROOT}\nns1.lab.test. 86400 IN A ${SERVICE}\nns2.lab.test. 86400 IN A ${SERVICE}\n`],
  ];
  const rootDir = join(dir, 'root');
  mkdirSync(rootDir, { recursive: true });
  zones.forEach(([, text], i) => writeFileSync(join(rootDir, `z${i}.db`), text));
  const root = await startNamed(rootDir, 53, zones.map(([zone], i) => `zone "${zone}" { type primary; file "${rootDir}/z${i}.db"; };`).join('\n'), null, '', ROOT);
  // Stopped however the lab ends (a BIND left behind would outlive the namespace's other processes).
  closers.push(root.stop);
  // The reference: the same zone as the service serves it (its AXFR), served by BIND with its defaults (cookies on).
  const refDir = join(dir, 'reference');
  mkdirSync(refDir, { recursive: true });
  const axfr = (await dig(SERVICE, ['+nocookie', PLAIN, 'AXFR'])).split('\n').filter((l) => l && !l.startsWith(';'));
  writeFileSync(join(refDir, 'plain.db'), `${axfr.slice(0, -1).join('\n')}\n`);
  const reference = await startNamed(refDir, 53, `zone "${PLAIN}" { type primary; file "${refDir}/plain.db"; };`, null, '', REFERENCE);
  closers.push(reference.stop);
  await waitFor(ROOT, 'com');
  await waitFor(REFERENCE, PLAIN);
}

/** zonemaster-cli's findings above INFO, as "LEVEL MODULE TAG args" lines: a delegated test through the lab's root. */
async function zonemaster(zone: string): Promise<string[]> {
  const hints = join(dir, `hints-${zone}.zone`);
  writeFileSync(hints, `. 3600000 NS a.lab-root.test.\na.lab-root.test. 3600000 A ${ROOT}\n`);
  const out = await tool('/usr/bin/zonemaster-cli', ['--hints', hints, '--no-ipv6', '--raw', '--level', 'NOTICE', '--show-testcase', zone], 90_000);
  // Each line: seconds, level, test case, tag, arguments.
  const lines = out.split('\n').map((l) => l.trim().replace(/\s+/g, ' ').replace(/^[0-9.]+ /, ''));
  const findings = lines.filter((l) => /^(NOTICE|WARNING|ERROR|CRITICAL) /.test(l));
  return findings.length > 0 || /^\s*$/.test(out) ? findings : [`no finding read from: ${out.slice(0, 2000)}`];
}

/**
 * dnsviz probe (authoritative, EDNS checks, the service as each zone's servers, each zone's DS given) of every signed
 * zone in one run, then grok: each zone's findings (what is said of its parents counts for each) and status.
 */
async function dnsviz(ds: Record<string, string>): Promise<Record<string, { errors: string[]; warnings: string[]; status: string }>> {
  const probe = join(dir, 'probe.json');
  const servers = `ns1.lab.test=${SERVICE},ns2.lab.test=${SERVICE}`;
  const args = Object.entries(ds).flatMap(([zone, record]) => {
    const dsFile = join(dir, `ds-${zone}.txt`);
    writeFileSync(dsFile, `${record}\n`);
    return ['-x', `${zone}:${servers}`, '-N', `${zone}:${servers}`, '-D', `${zone}:${dsFile}`];
  });
  const probed = await tool('/usr/bin/dnsviz', ['probe', '-A', '-E', ...args, '-o', probe, ...Object.keys(ds)], 120_000);
  const grokked = await tool('/usr/bin/dnsviz', ['grok', '-r', probe], 60_000);
  const out: Record<string, { errors: string[]; warnings: string[]; status: string }> = {};
  let parsed: Record<string, { delegation?: { status?: string } }> | null = null;
  try {
    parsed = JSON.parse(grokked) as Record<string, { delegation?: { status?: string } }>;
  } catch {
    parsed = null;
  }
  for (const zone of Object.keys(ds)) {
    const findings: { errors: string[]; warnings: string[] } = { errors: [], warnings: [] };
    if (!parsed) {
      findings.errors.push(`grok did not answer JSON: ${probed.slice(0, 500)} ${grokked.slice(0, 500)}`);
      out[zone] = { ...findings, status: 'unread' };
      continue;
    }
    // The zone's own node, and every node that is not another probed zone's (its parents: com., the root).
    for (const [name, node] of Object.entries(parsed)) if (name === `${zone}.` || !(name.slice(0, -1) in ds)) collect(node, `/${name}`, findings);
    out[zone] = { ...findings, status: parsed[`${zone}.`]?.delegation?.status ?? 'none' };
  }
  return out;
}

/** Every `errors`/`warnings` entry under `node`, with the path it sits at. */
function collect(node: unknown, path: string, into: { errors: string[]; warnings: string[] }) {
  if (Array.isArray(node)) return node.forEach((child, i) => collect(child, `${path}[${i}]`, into));
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'errors' || key === 'warnings') && Array.isArray(value)) {
      for (const finding of value) into[key].push(`${path}: ${(finding as { code?: string; description?: string }).code ?? ''} ${(finding as { description?: string }).description ?? JSON.stringify(finding)}`);
    } else collect(value, `${path}/${key}`, into);
  }
}

/** ISC's EDNS compliance cases (the DNS flag day's list), as dig asks them. */
export const COMPLIANCE: Array<[string, string[]]> = [
  ['dns', ['+norec', '+noedns', 'SOA']],
  ['aa', ['+norec', '+noedns', '+aaflag', 'SOA']],
  ['ad', ['+norec', '+noedns', '+adflag', 'SOA']],
  ['cd', ['+norec', '+noedns', '+cdflag', 'SOA']],
  ['ra', ['+norec', '+noedns', '+raflag', 'SOA']],
  ['rd', ['+rec', '+noedns', 'SOA']],
  ['tc', ['+norec', '+noedns', '+tcflag', 'SOA']],
  ['zflag', ['+norec', '+noedns', '+zflag', 'SOA']],
  ['opcode', ['+norec', '+noedns', '+opcode=15', '+header-only']],
  ['opcodeflg', ['+norec', '+noedns', '+opcode=15', '+header-only', '+tcflag', '+rec', '+raflag', '+cdflag', '+adflag', '+aaflag', '+zflag']],
  ['type666', ['+norec', '+noedns', 'TYPE666']],
  ['tcp', ['+norec', '+noedns', '+tcp', 'SOA']],
  ['edns', ['+norec', '+edns=0', '+nocookie', 'SOA']],
  ['edns1', ['+norec', '+edns=1', '+noednsneg', '+nocookie', 'SOA']],
  ['edns@512', ['+norec', '+edns=0', '+dnssec', '+bufsize=512', '+ignore', '+nocookie', 'DNSKEY']],
  ['ednsopt', ['+norec', '+edns=0', '+ednsopt=100', '+nocookie', 'SOA']],
  ['edns1opt', ['+norec', '+edns=1', '+noednsneg', '+ednsopt=100', '+nocookie', 'SOA']],
  ['do', ['+norec', '+edns=0', '+dnssec', '+nocookie', 'SOA']],
  ['docd', ['+norec', '+edns=0', '+dnssec', '+cdflag', '+nocookie', 'SOA']],
  ['ednsflags', ['+norec', '+edns=0', '+ednsflags=0x80', '+nocookie', 'SOA']],
  ['optlist', ['+norec', '+edns=0', '+nsid', '+subnet=0.0.0.0/0', '+expire', '+cookie', 'SOA']],
  ['ednstcp', ['+norec', '+edns=0', '+tcp', '+nocookie', 'SOA']],
  ['cookie', ['+norec', '+edns=0', '+cookie', 'SOA']],
];

/** What a compliance case looks at in an answer: status, header flags, EDNS version and flags, which options came back. */
function shape(text: string): string {
  if (/timed out|no servers could be reached/.test(text)) return 'no answer';
  const status = /status: ([A-Z0-9]+)/.exec(text)?.[1] ?? '?';
  const opcode = /opcode: ([A-Z0-9]+)/.exec(text)?.[1] ?? '?';
  const flags = /;; flags: ([a-z ]*);/.exec(text)?.[1].trim() ?? '?';
  const edns = /; EDNS: version: (\d+), flags:([a-z ]*); udp: \d+/.exec(text);
  const options = [...text.matchAll(/^; ([A-Z0-9-]+)(?:: |=)/gm)].map((m) => m[1]).filter((o) => o !== 'EDNS').sort();
  const answer = /ANSWER: (\d+)/.exec(text)?.[1] ?? '?';
  return [`${opcode} ${status}`, `flags: ${flags}`, edns ? `edns ${edns[1]}${edns[2].trim() ? ` ${edns[2].trim()}` : ''}` : 'no edns', `answers ${answer === '0' ? 0 : '>0'}`, ...options].join(', ');
}

async function compliance(): Promise<Array<{ name: string; service: string; bind: string }>> {
  const rows = [];
  for (const [name, args] of COMPLIANCE) {
    const question = args.includes('+header-only') ? [PLAIN] : [PLAIN];
    rows.push({ name, service: shape(await dig(SERVICE, [...args, ...question])), bind: shape(await dig(REFERENCE, [...args, ...question])) });
  }
  return rows;
}

/** dig +cookie: the server cookie it gets, and what the server answers when dig sends it back (dig's own verdict). */
async function digCookie() {
  const first = await dig(SERVICE, ['+norec', '+cookie', PLAIN, 'SOA']);
  const cookie = /; COOKIE: ([0-9a-f]+)/.exec(first)?.[1] ?? '';
  // A second later: a cookie made anew would carry another timestamp, so one sent back unchanged was accepted.
  await new Promise((done) => setTimeout(done, 1100));
  const again = await dig(SERVICE, ['+norec', `+cookie=${cookie}`, PLAIN, 'SOA']);
  const tampered = `${cookie.slice(0, -2)}${cookie.endsWith('00') ? '01' : '00'}`;
  const bad = await dig(SERVICE, ['+norec', `+cookie=${tampered}`, PLAIN, 'SOA']);
  const over = (text: string) => /; COOKIE: ([0-9a-f]+)( \(good\))?/.exec(text);
  return { first: over(first)?.[0] ?? first, resent: over(again)?.[0] ?? again, tampered: over(bad)?.[0] ?? bad, sent: cookie, tamperedSent: tampered, status: /status: ([A-Z]+)/.exec(again)?.[1] };
}

/**
 * BIND as a resolver forwarding to the service (through a relay on 127.0.0.5 that notes the COOKIE option of each
 * query and answer): the cookies it sent and got, in order.
 */
async function resolverCookies(): Promise<Array<{ query: string; answer: string }>> {
  const seen: Array<{ query: string; answer: string }> = [];
  const relay = createSocket('udp4');
  const cookieOf = (m: Buffer) => {
    const opt = dnsPacket.decode(m).additionals?.find((a) => a.type === 'OPT') as { options?: Array<{ code: number; data?: Buffer }> } | undefined;
    return opt?.options?.find((o) => o.code === 10)?.data?.toString('hex') ?? '';
  };
  relay.on('message', (query, from) => {
    const upstream = createSocket('udp4');
    upstream.on('message', (answer) => {
      seen.push({ query: cookieOf(query), answer: cookieOf(answer) });
      relay.send(answer, from.port, from.address);
      upstream.close();
    });
    upstream.send(query, 53, SERVICE);
  });
  await new Promise<void>((ready) => relay.bind(53, RELAY, () => ready()));
  const resolverDir = join(dir, 'resolver');
  mkdirSync(resolverDir, { recursive: true });
  writeFileSync(
    join(resolverDir, 'named.conf'),
    `options { directory "${resolverDir}"; listen-on port 53 { ${RESOLVER}; }; listen-on-v6 { none; }; recursion yes; allow-query { any; }; ` +
      `forwarders { ${RELAY}; }; forward only; dnssec-validation no; pid-file none; };\n`,
  );
  const named = spawn('/usr/sbin/named', ['-g', '-u', 'root', '-n', '1', '-c', join(resolverDir, 'named.conf')], { stdio: 'ignore' });
  try {
    await waitFor(RESOLVER, PLAIN);
    for (const name of [`www.${PLAIN}`, `mail.${PLAIN}`, `nothing.${PLAIN}`]) await dig(RESOLVER, [name, 'A']);
    return seen;
  } finally {
    named.kill('SIGTERM');
    relay.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
