/**
 * BIND 9 as the reference reader of zone files: `named-compilezone` (Debian bind9-utils) loads a file as `named`
 * would and writes it back one record per line, and `dig` (bind9-dnsutils) asks a name server.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NAMED_COMPILEZONE = process.env.NAMED_COMPILEZONE ?? '/usr/bin/named-compilezone';
const DIG = process.env.DIG ?? '/usr/bin/dig';
const DELV = process.env.DELV ?? '/usr/bin/delv';
const DNSSEC_VERIFY = process.env.DNSSEC_VERIFY ?? '/usr/bin/dnssec-verify';
const NO_BIND_MESSAGE =
  'BIND 9 tools not found for the DNS tests (named-compilezone, dig, delv, dnssec-verify). Install Debian\u2019s bind9, bind9-utils ' +
  'and bind9-dnsutils (apt-get install -y bind9 bind9-utils bind9-dnsutils), or set NAMED_COMPILEZONE, DIG, DELV and DNSSEC_VERIFY to their paths.';

export function bindToolsMissing(): string | null {
  return [NAMED_COMPILEZONE, DIG, DELV, DNSSEC_VERIFY].every((tool) => existsSync(tool)) ? null : NO_BIND_MESSAGE;
}

export type CompileResult =
  /** BIND loaded the zone; `text` is its canonical dump (absolute owners, one record per line). */
  | { ok: true; text: string; log: string }
  /** BIND refused the zone; `line` is the first line it named in an error, when it named one. */
  | { ok: false; line: number | null; log: string };

/** Loads a zone file with named-compilezone, as `named` would load it. */
export function compileZone(zone: string, text: string): CompileResult {
  const dir = mkdtempSync(join(tmpdir(), 'namefi-bind-'));
  try {
    const input = join(dir, 'in.zone');
    const output = join(dir, 'out.zone');
    writeFileSync(input, text);
    const run = spawnSync(NAMED_COMPILEZONE, ['-k', 'fail', '-o', output, zone, input], { encoding: 'utf8' });
    const log = `${run.stdout}${run.stderr}`;
    if (run.status === 0 && existsSync(output)) return { ok: true, text: readFileSync(output, 'utf8'), log };
    // Errors name the line as "in.zone:12: …"; warnings do too, so take the line of the first error-like message.
    const lines = [...log.matchAll(/in\.zone:([0-9]+): (.*)/g)].filter(([, , message]) => !/^(using RFC1035 TTL semantics|TTL set to prior TTL|no TTL specified; using SOA MINTTL)/.test(message));
    return { ok: false, line: lines.length > 0 ? Number(lines[0][1]) : null, log };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `dig @127.0.0.1 -p port …` with the given arguments; answers dig's output text. Asynchronous, so a server in this process can answer. */
export async function dig(port: number, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(DIG, ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=1', ...args], { encoding: 'utf8' });
  return stdout;
}

type DsAnchor = { keyTag: number; digest: string; algorithm?: number };

/**
 * BIND's validator: `delv` asks the server at `port` and validates the answer up to `zone`, whose DS is the only
 * trust anchor (a static-ds anchor, as a parent zone would publish it). Answers delv's output; a validation
 * failure is in it too ("resolution failed"), not thrown.
 */
export async function delv(port: number, zone: string, ds: DsAnchor | DsAnchor[], name: string, type: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'namefi-delv-'));
  try {
    const anchors = join(dir, 'anchors.conf');
    // Several DS records: what a parent holds while a key changes (any one of them that matches a key validates).
    const lines = (Array.isArray(ds) ? ds : [ds]).map((d) => `"${zone}." static-ds ${d.keyTag} ${d.algorithm ?? 13} 2 "${d.digest}";`);
    writeFileSync(anchors, `trust-anchors { ${lines.join(' ')} };\n`);
    const run = await promisify(execFile)(DELV, ['@127.0.0.1', '-p', String(port), '-a', anchors, `+root=${zone}`, '+nortrace', name, type], { encoding: 'utf8' }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
    );
    return `${run.stdout}${run.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `dnssec-verify` over a zone file (a transfer as dig prints it): whether BIND accepts the signed zone, and its log.
 * `-z`: the zone has one combined key (flags 257) signing everything, which dnssec-verify otherwise takes for a KSK
 * and then asks for a separate ZSK.
 */
export function verifySignedZone(zone: string, text: string): { ok: boolean; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'namefi-verify-'));
  try {
    const file = join(dir, 'signed.zone');
    writeFileSync(file, text);
    const run = spawnSync(DNSSEC_VERIFY, ['-z', '-o', zone, file], { encoding: 'utf8' });
    return { ok: run.status === 0, log: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const DNSSEC_KEYGEN = process.env.DNSSEC_KEYGEN ?? '/usr/bin/dnssec-keygen';
const DNSSEC_SIGNZONE = process.env.DNSSEC_SIGNZONE ?? '/usr/bin/dnssec-signzone';

/**
 * Signs a zone file as an old provider would have (NSEC3, a KSK and a ZSK, ECDSA P-256) with BIND's
 * `dnssec-keygen` and `dnssec-signzone` (bind9-utils); answers the signed file's path, beside the unsigned one.
 */
export function signZoneFile(zone: string, file: string, dir: string): string {
  const missing = [DNSSEC_KEYGEN, DNSSEC_SIGNZONE].filter((tool) => !existsSync(tool));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} not found: install Debian\u2019s bind9-utils, or set DNSSEC_KEYGEN and DNSSEC_SIGNZONE`);
  const run = (tool: string, args: string[]) => {
    const done = spawnSync(tool, args, { encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`${tool} ${args.join(' ')}: ${done.stdout}${done.stderr}`);
    return done.stdout.trim();
  };
  const keys = [run(DNSSEC_KEYGEN, ['-K', dir, '-a', 'ECDSAP256SHA256', '-f', 'KSK', zone]), run(DNSSEC_KEYGEN, ['-K', dir, '-a', 'ECDSAP256SHA256', zone])];
  writeFileSync(file, `${readFileSync(file, 'utf8')}${keys.map((key) => `$INCLUDE ${join(dir, `${key}.key`)}\n`).join('')}`);
  const signed = `${file}.signed`;
  // -d: its dsset file goes beside the keys, not into the working directory.
  run(DNSSEC_SIGNZONE, ['-K', dir, '-d', dir, '-3', 'c0ffee', '-o', zone, '-f', signed, file]);
  return signed;
}
