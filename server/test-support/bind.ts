/**
 * BIND 9 as the reference reader of zone files: `named-compilezone` (Debian bind9-utils) loads a file as `named`
 * would and writes it back one record per line, and `dig` (bind9-dnsutils) asks a name server.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NAMED_COMPILEZONE = process.env.NAMED_COMPILEZONE ?? '/usr/bin/named-compilezone';
export const DIG = process.env.DIG ?? '/usr/bin/dig';
export const NO_BIND_MESSAGE =
  'BIND 9 tools not found for the DNS tests (named-compilezone, dig). Install Debian\u2019s bind9-utils and bind9-dnsutils ' +
  '(apt-get install -y bind9-utils bind9-dnsutils), or set NAMED_COMPILEZONE and DIG to their paths.';

export function bindToolsMissing(): string | null {
  return existsSync(NAMED_COMPILEZONE) && existsSync(DIG) ? null : NO_BIND_MESSAGE;
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
