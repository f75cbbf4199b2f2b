import { txtFromWire } from '#core/dns/rdata.ts';
import type { MailRecord } from '#core/mail/providers.ts';
import { isManaged, type DnsRecord } from '#core/wire/dns.ts';
import { addCreate, addDelete, setUpdate, type Draft } from '@/features/records/index.ts';

/** Which TXT records play a role, by the text they start with; DKIM's is the selector's name, whatever it holds. */
const TXT_ROLE: Partial<Record<MailRecord['role'], RegExp>> = {
  SPF: /^v=spf1(\s|$)/i,
  DMARC: /^v=DMARC1/i,
  'MTA-STS': /^v=STSv1/i,
  'TLS-RPT': /^v=TLSRPTv1/i,
};

/** Whether a stored record already plays a built record's part: the set-up replaces it. Verification values are only ever added. */
function playsRole(record: DnsRecord, built: MailRecord): boolean {
  if (isManaged(record) || record.name !== built.name || built.role === 'Verification') return false;
  if (built.type === 'CNAME' || record.type === 'CNAME') return true;
  if (built.type === 'MX') return record.type === 'MX';
  if (record.type !== 'TXT') return false;
  if (built.role === 'DKIM') return true;
  const pattern = TXT_ROLE[built.role];
  return pattern !== undefined && pattern.test(txtFromWire(record.rdata));
}

const same = (record: DnsRecord, built: MailRecord) => record.type === built.type && record.rdata === built.rdata;

/**
 * The change set with a provider's mail set-up in it: per name and part (MX, SPF, DKIM, …) the records already right
 * stay, the ones playing that part otherwise are changed into the new ones (an edit where the type is the same, else
 * a deletion and an addition), and the rest are added. Nothing is signed here: the Records tab reviews it.
 */
export function withMailSetup(draft: Draft, zone: DnsRecord[], built: MailRecord[]): { draft: Draft; replaced: DnsRecord[] } {
  const groups = new Map<string, MailRecord[]>();
  for (const record of built) {
    const key = `${record.name}\u0000${record.role}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  let next = draft;
  const replaced: DnsRecord[] = [];
  for (const group of groups.values()) {
    const existing = zone.filter((r) => playsRole(r, group[0]));
    const kept = existing.filter((r) => group.some((b) => same(r, b)));
    const toAdd = group.filter((b) => !kept.some((r) => same(r, b)));
    const toRemove = existing.filter((r) => !kept.includes(r));
    for (const record of toAdd) {
      const pair = toRemove.findIndex((r) => r.type === record.type);
      const input = { name: record.name, type: record.type, rdata: record.rdata, ttl: record.ttl };
      if (pair >= 0) {
        const [current] = toRemove.splice(pair, 1);
        replaced.push(current);
        next = setUpdate(next, current, input);
      } else {
        next = addCreate(next, input);
      }
    }
    for (const record of toRemove) {
      replaced.push(record);
      next = addDelete(next, record.id);
    }
  }
  return { draft: next, replaced };
}
