import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The field's judges (zonemaster-cli, dnsviz, ISC's EDNS compliance cases beside BIND, BIND as a resolver) against
 * the service's name server, all inside a network namespace of the test's own (test/judges/lab.ts): the service on
 * 127.0.0.1:53 as zonemaster asks, a lab root of BIND for the delegations, and no route to any other host.
 */
const TOOLS: Record<string, string> = {
  '/usr/bin/zonemaster-cli': 'zonemaster-cli',
  '/usr/bin/dnsviz': 'dnsviz',
  '/usr/sbin/named': 'bind9',
  '/usr/bin/dig': 'bind9-dnsutils',
  '/usr/bin/unshare': 'util-linux',
  '/usr/sbin/ip': 'iproute2',
};
const missing = Object.keys(TOOLS).filter((path) => !existsSync(path));
if (missing.length > 0) throw new Error(`Not found: ${missing.join(', ')}. Install Debian's ${[...new Set(missing.map((p) => TOOLS[p]))].join(' ')}.`);
if (process.getuid?.() !== 0) throw new Error('The field-judges lab needs root: it makes a network namespace (unshare -n) and serves DNS on port 53 in it.');

interface Lab {
  ds: Record<string, string>;
  zonemaster: Record<string, string[]>;
  dnsviz: Record<string, { errors: string[]; warnings: string[]; status: string }>;
  compliance: Array<{ name: string; service: string; bind: string }>;
  digCookie: { first: string; resent: string; tampered: string; sent: string; tamperedSent: string; status: string };
  resolverCookies: Array<{ query: string; answer: string }>;
}

/**
 * What zonemaster reports in this lab whatever the server does: name servers on loopback without PTR (ADDRESS01/02),
 * both on one address and neither on IPv6 (DELEGATION01/02), the SOA MNAME on loopback (ZONE01), and AXFR open to
 * loopback (NAMESERVER03: DNS_AXFR_ALLOW's default, and zonemaster asks from 127.0.0.1). An unsigned zone is also
 * reported unsigned (DNSSEC07, NOT_SIGNED): a NOTICE, and the owner's choice.
 */
const LAB_CAUSED = new Set([
  'ADDRESS01 NAMESERVER_IP_PRIVATE_NETWORK',
  'ADDRESS02 NAMESERVER_IP_WITHOUT_REVERSE',
  'DELEGATION01 NO_IPV6_NS_CHILD',
  'DELEGATION01 NO_IPV6_NS_DEL',
  'DELEGATION02 DEL_NS_SAME_IP',
  'DELEGATION02 CHILD_NS_SAME_IP',
  'DELEGATION02 SAME_IP_ADDRESS',
  'ZONE01 Z01_MNAME_HAS_LOCALHOST_ADDR',
  'NAMESERVER03 AXFR_AVAILABLE',
]);
const UNSIGNED = new Set(['DNSSEC07 NEITHER_DNSKEY_NOR_DS', 'UNSPECIFIED NOT_SIGNED']);

let lab: Lab;

beforeAll(async () => {
  const script = fileURLToPath(new URL('../../test/judges/lab.ts', import.meta.url));
  const setup = `ip link set lo up && for i in 2 3 4 5; do ip addr add 127.0.0.$i/8 dev lo; done && ip route add default dev lo && exec node --import tsx ${script}`;
  try {
    const { stdout } = await promisify(execFile)('/usr/bin/unshare', ['-n', 'sh', '-c', setup], { encoding: 'utf8', timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
    lab = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Lab;
  } catch (error) {
    throw new Error(`The lab failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
}, 250_000);

describe('the field’s judges, in a lab of loopback addresses', () => {
  it('zonemaster-cli finds nothing above INFO in an unsigned zone and signed ones (NSEC, NSEC3, Ed25519, Ed25519 with NSEC3) but what the lab causes', () => {
    expect(Object.keys(lab.zonemaster).sort()).toEqual(['ed25519-nsec3.com', 'ed25519.com', 'nsec3.com', 'plain.com', 'signed.com']);
    for (const [zone, findings] of Object.entries(lab.zonemaster)) {
      // Findings are "LEVEL TESTCASE TAG args"; the lab always shows some, so an empty list would mean zonemaster never ran.
      expect(findings.length, zone).toBeGreaterThan(0);
      const tags = findings.map((line) => line.split(' ').slice(1, 3).join(' '));
      const allowed = zone === 'plain.com' ? [...LAB_CAUSED, ...UNSIGNED] : [...LAB_CAUSED];
      expect(tags.filter((tag) => !allowed.includes(tag)), `${zone}:\n${findings.join('\n')}`).toEqual([]);
    }
  });

  it('dnsviz probe (with its EDNS checks) and grok, with the DS, find each signed zone (NSEC, NSEC3, Ed25519, Ed25519 with NSEC3) secure with no error or warning', () => {
    const clean = { errors: [], warnings: [], status: 'SECURE' };
    expect(lab.dnsviz).toEqual({ 'signed.com': clean, 'nsec3.com': clean, 'ed25519.com': clean, 'ed25519-nsec3.com': clean });
  });

  it('answers every case of ISC’s EDNS compliance list as BIND answers it (status, flags, EDNS version and flags, options)', () => {
    const differing = lab.compliance.filter((row) => row.service !== row.bind);
    expect(differing).toEqual([]);
    const byName = Object.fromEntries(lab.compliance.map((row) => [row.name, row.service]));
    expect(byName.edns1).toMatch(/^QUERY BADVERS, flags: qr, edns 0, answers 0/);
    expect(byName.edns1opt).toMatch(/^QUERY BADVERS, flags: qr, edns 0, answers 0/);
    expect(byName.opcode).toMatch(/^RESERVED15 NOTIMP/);
    expect(byName.ednsopt).toBe('QUERY NOERROR, flags: qr aa, edns 0, answers >0');
    expect(byName.cookie).toMatch(/, COOKIE$/);
  });

  it('dig +cookie gets a server cookie, which the server takes back unchanged, and replaces one that is not its own', () => {
    const { first, resent, tampered, sent, tamperedSent } = lab.digCookie;
    expect(first).toMatch(/^; COOKIE: [0-9a-f]{16}01000000[0-9a-f]{24} \(good\)$/);
    expect(resent).toBe(`; COOKIE: ${sent} (good)`);
    expect(tampered).toMatch(/\(good\)$/);
    expect(tampered).not.toContain(tamperedSent);
  });

  it('BIND as a resolver forwarding to the service gets a server cookie and sends it back with its next queries', () => {
    const [first, ...later] = lab.resolverCookies;
    expect(first.query).toMatch(/^[0-9a-f]{16}$/);
    expect(first.answer).toMatch(new RegExp(`^${first.query}01000000[0-9a-f]{24}$`));
    expect(later.length).toBeGreaterThan(0);
    for (const exchange of later) {
      expect(exchange.query).toBe(first.answer);
      expect(exchange.answer).toBe(exchange.query);
    }
  });
});
