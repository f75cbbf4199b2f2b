import { isAddress } from 'viem';
import { isManaged, type DnsRecord } from '#core/wire/dns.ts';
import { validateRdata } from '#core/dns/rdata.ts';

/**
 * ENSIP-17 (gasless DNSSEC): a DNS name is an ENS name when its apex holds the TXT `ENS1 <resolver> <address>`,
 * the zone is signed, and the parent publishes the zone's DS, so ENS's offchain resolver can prove the record. Only
 * the first string counts, at most 255 bytes. Mainnet's resolver for these names is `dnsname.ens.eth`.
 */
export const DEFAULT_ENS_RESOLVER = 'dnsname.ens.eth';

const ENS1 = /^ENS1\s+(\S+)\s+(\S+)/;
const RESOLVER_NAME = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

export interface EnsTarget {
  resolver: string;
  address: string;
}

/** Why these cannot be an ENS1 record, by field, or an empty object. */
export function ensProblems(target: EnsTarget): Partial<Record<keyof EnsTarget, string>> {
  const problems: Partial<Record<keyof EnsTarget, string>> = {};
  const resolver = target.resolver.trim();
  if (!(RESOLVER_NAME.test(resolver) || isAddress(resolver))) problems.resolver = `The resolver is an ENS name such as ${DEFAULT_ENS_RESOLVER}, or a contract address (0x and 40 hex digits)`;
  if (!isAddress(target.address.trim())) problems.address = 'The owner is an Ethereum address: 0x and 40 hex digits';
  return problems;
}

/** The apex TXT record's data, in its stored form (one quoted string). */
export function ensRdata(target: EnsTarget): string {
  const checked = validateRdata('TXT', `ENS1 ${target.resolver.trim()} ${target.address.trim()}`);
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
}

/** The text of a TXT record's first string, without quotes or escapes (enough for ENS1's plain words). */
function firstString(rdata: string): string {
  const match = /^"((?:[^"\\]|\\.)*)"/.exec(rdata.trim());
  return match ? match[1].replace(/\\(.)/g, '$1') : rdata.trim();
}

/** The zone's ENS1 record (an apex TXT someone wrote), with what it names; null when there is none. */
export function findEnsRecord(records: readonly DnsRecord[]): { record: DnsRecord; target: EnsTarget } | null {
  for (const record of records) {
    if (record.name !== '@' || record.type !== 'TXT' || isManaged(record)) continue;
    const match = ENS1.exec(firstString(record.rdata));
    if (match) return { record, target: { resolver: match[1], address: match[2] } };
  }
  return null;
}

export type StepState = 'done' | 'missing' | 'unknown';

/**
 * The three steps and where each stands: the record (from the zone), DNSSEC (from the service), the DS at the parent
 * (which this dashboard cannot see: `unknown`, with what to do).
 */
export function ensSteps(input: { record: { target: EnsTarget } | null; wanted: EnsTarget; dnssec: boolean | null; domain: string; localService: boolean }) {
  const { record, wanted, dnssec, domain, localService } = input;
  const same = record !== null && record.target.resolver.toLowerCase() === wanted.resolver.trim().toLowerCase() && record.target.address.toLowerCase() === wanted.address.trim().toLowerCase();
  const parent = domain.includes('.') ? domain.slice(domain.indexOf('.') + 1) : domain;
  return [
    {
      id: 'record',
      title: 'The ENS1 record at the apex',
      state: (record ? 'done' : 'missing') as StepState,
      words: record
        ? `Present: ENS1 ${record.target.resolver} ${record.target.address}${same ? '' : ' (the form says otherwise: writing replaces it)'}`
        : `Missing: write it below (one signature).`,
    },
    {
      id: 'dnssec',
      title: 'DNSSEC on',
      state: (dnssec === null ? 'unknown' : dnssec ? 'done' : 'missing') as StepState,
      words:
        dnssec === null
          ? 'Not known: the service did not say whether the zone is signed.'
          : dnssec
            ? 'On: every answer is signed, so ENS can prove the record.'
            : 'Off: turn it on above (Sign this zone). ENS accepts only a signed record.',
    },
    {
      id: 'ds',
      title: `The DS record at the parent (.${parent})`,
      state: 'unknown' as StepState,
      words: localService
        ? 'Not known here: this local service has no parent zone. For a real domain, add the DS record shown above at your registrar; ENS checks the chain from the root.'
        : `Not known here: this dashboard cannot see .${parent}. Add the DS record shown above at your registrar, then check it with a DNSSEC checker; ENS checks the chain from the root.`,
    },
  ];
}
