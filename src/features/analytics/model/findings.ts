import { DAY_MS } from '#core/dates.ts';
import { fullName } from '#core/dns/names.ts';
import { isStoredRecord, isWritableType, type DnsRecord, type RecordType } from '#core/wire/dns.ts';
import type { ZoneAnalytics } from '#core/wire/analytics.ts';

export type Finding =
  | { kind: 'nxdomain'; name: string; type: string; count: number; text: string; add: { name: string; type: RecordType } | null }
  | { kind: 'unasked'; name: string; type: string; text: string }
  | { kind: 'dnssec'; share: number; text: string };

/** A name answered NXDOMAIN this often in the window is worth a word. */
const NXDOMAIN_AT_LEAST = 2;

const queries = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'query' : 'queries'}`;

/**
 * What the numbers say, in words: names people ask for that do not exist (a typo somewhere, or a missing record:
 * offering to add it), records nobody asked for over the 30-day window, and how many queries asked for DNSSEC.
 * `month` is the 30-day read (for records, written at least 30 days ago, that nobody asked for), `window` the one on screen.
 */
export function findingsOf(zoneName: string, window: ZoneAnalytics, month: ZoneAnalytics | undefined, records: DnsRecord[] | undefined): Finding[] {
  const out: Finding[] = [];
  const missing = new Map<string, { type: string; count: number }>();
  for (const t of window.topNames) {
    if (t.rcode !== 'NXDOMAIN') continue;
    const had = missing.get(t.name);
    if (!had || had.count < t.count) missing.set(t.name, { type: t.type, count: (had?.count ?? 0) + t.count });
    else had.count += t.count;
  }
  for (const [name, { type, count }] of [...missing].sort((a, b) => b[1].count - a[1].count)) {
    if (count < NXDOMAIN_AT_LEAST) continue;
    const full = fullName(name, zoneName);
    out.push({
      kind: 'nxdomain',
      name,
      type,
      count,
      text: `People ask for ${full}, which has no record (${queries(count)} answered NXDOMAIN): a typo somewhere, or a missing record?`,
      add: { name, type: isWritableType(type) ? type : 'A' },
    });
  }
  if (month && records) {
    const asked = new Set(month.topNames.filter((t) => t.rcode === 'NOERROR' || t.rcode === 'NODATA').map((t) => `${t.name} ${t.type}`));
    const askedNames = new Set(month.topNames.map((t) => t.name));
    // Only when the month's list is complete (fewer names than the service answers with), and once per name and type.
    if (month.topNames.length < 100) {
      const seen = new Set<string>();
      // Records someone wrote at least 30 days before the month's end (not the provider's, not service names like _dmarc).
      const oldEnough = Date.parse(month.until) - 30 * DAY_MS;
      for (const r of records) {
        const key = `${r.name} ${r.type}`;
        if (!isStoredRecord(r) || Date.parse(r.createdAt) > oldEnough || seen.has(key) || asked.has(key) || askedNames.has(r.name) || r.name.startsWith('_')) continue;
        seen.add(key);
        out.push({ kind: 'unasked', name: r.name, type: r.type, text: `Nobody asked for the ${r.type} record of ${fullName(r.name, zoneName)} in the last 30 days.` });
      }
    }
  }
  const total = window.series.reduce((n, p) => n + p.total, 0);
  if (total > 0) {
    const dnssec = window.series.reduce((n, p) => n + p.dnssecOk, 0);
    const share = dnssec / total;
    out.push({ kind: 'dnssec', share, text: `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}% of queries asked for DNSSEC (${queries(dnssec)} of ${total.toLocaleString('en')} set the DO bit).` });
  }
  return out;
}
