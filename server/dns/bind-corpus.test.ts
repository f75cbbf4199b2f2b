import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bindToolsMissing, compileZone } from '../../test/support/bind.ts';
import { parseZoneFile } from '#core/dns/zone-file.ts';

const fixture = (name: string) => readFileSync(new URL(`../../core/dns/fixtures/${name}`, import.meta.url), 'utf8');
const rows = (records: Array<{ name: string; type: string; rdata: string; ttl: number }>) => records.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.rdata}`).sort();

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

/** Realistic exports, each with the zone it belongs to. */
const CORPUS: Record<string, string> = {
  'cloudflare.txt': 'example.com',
  'godaddy.txt': 'example.org',
  'google-cloud-dns.txt': 'shop.example',
  'hand-written.txt': 'tenant.example',
};
/**
 * Files BIND refuses as a whole but the import reads, leaving out (with a reason) the provider's pseudo records
 * that make BIND refuse them: the person gets the rest of their zone instead of nothing.
 */
const PSEUDO_RECORDS: Record<string, { zone: string; bindLine: number; skippedLine: number }> = {
  'namecheap.txt': { zone: 'example.io', bindLine: 24, skippedLine: 24 },
  'route53-cli53.txt': { zone: 'example.net', bindLine: 9, skippedLine: 9 },
};

describe('zone files as BIND 9 reads them (named-compilezone)', () => {
  it.each(Object.entries(CORPUS))('%s: the import reads the records BIND loads, TTLs included', (file, zone) => {
    const text = fixture(file);
    const bind = compileZone(zone, text);
    if (!bind.ok) throw new Error(`BIND refused ${file}: ${bind.log}`);
    const ours = parseZoneFile(text, { origin: zone });
    expect(ours.errors).toEqual([]);
    expect(rows(ours.records)).toEqual(rows(parseZoneFile(bind.text, { origin: zone }).records));
  });

  it.each(Object.entries(PSEUDO_RECORDS))('%s: a provider pseudo record BIND refuses is skipped with a reason at the same line', (file, { zone, bindLine, skippedLine }) => {
    const text = fixture(file);
    const bind = compileZone(zone, text);
    expect(bind).toMatchObject({ ok: false, line: bindLine });
    const ours = parseZoneFile(text, { origin: zone });
    expect(ours.skipped.map((s) => s.line)).toContain(skippedLine);
    // Without that line BIND loads the rest, and the two agree on it.
    const rest = text.split('\n').filter((_, i) => i + 1 !== bindLine).join('\n');
    const again = compileZone(zone, rest);
    if (!again.ok) throw new Error(again.log);
    expect(rows(parseZoneFile(rest, { origin: zone }).records)).toEqual(rows(parseZoneFile(again.text, { origin: zone }).records));
  });

  const broken = readdirSync(new URL('../../core/dns/fixtures/broken/', import.meta.url)).filter((f) => f.endsWith('.zone'));
  it.each(broken)('broken/%s: refused by BIND and by the import, at the same line', (file) => {
    const text = fixture(`broken/${file}`);
    const bind = compileZone('example.com', text);
    expect(bind.ok).toBe(false);
    const ours = parseZoneFile(text, { origin: 'example.com' });
    expect(ours.errors.length).toBeGreaterThan(0);
    expect(ours.errors[0].line).toBe(bind.ok ? null : bind.line);
  });
});
