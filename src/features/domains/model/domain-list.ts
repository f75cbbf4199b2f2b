import { DAY_MS } from '#core/dates.ts';
import type { UserDomain } from '#core/wire/user.ts';

/** Fewer days than this left before expiry earns a warning. */
const EXPIRY_WARNING_DAYS = 30;

export interface DomainRow {
  domain: UserDomain;
  name: string;
  expiresAt: number;
  daysLeft: number;
  /** Whole days since expiry, for an expired domain. */
  daysAgo: number;
  expiry: 'expired' | 'soon' | 'ok';
  parked: boolean;
  web: boolean;
  mail: boolean;
  /** Ours: undefined where the service does not say (production). */
  forwarding: boolean | undefined;
  dnssec: boolean | undefined;
  recordCount: number | undefined;
  registeredAt: number | undefined;
}

export function toDomainRow(domain: UserDomain, now: number): DomainRow {
  const expiresAt = Date.parse(domain.expirationDate);
  const daysLeft = Math.floor((expiresAt - now) / DAY_MS);
  return {
    domain,
    name: domain.normalizedDomainName,
    expiresAt,
    daysLeft,
    daysAgo: Math.max(0, -Math.ceil((expiresAt - now) / DAY_MS)),
    expiry: expiresAt <= now ? 'expired' : daysLeft < EXPIRY_WARNING_DAYS ? 'soon' : 'ok',
    parked: domain.dnsStatus.isParkingEnabled,
    web: domain.dnsStatus.hasWebRecords,
    mail: domain.dnsStatus.hasMxRecords,
    forwarding: domain.dnsStatus.isForwardingEnabled,
    dnssec: domain.dnsStatus.isDnssecEnabled,
    recordCount: domain.recordCount,
    registeredAt: domain.registeredAt === undefined ? undefined : Date.parse(domain.registeredAt),
  };
}

/** 'expires in 12 days', 'expired 3 days ago', 'expires today'. */
export function expiryInWords(row: Pick<DomainRow, 'daysLeft' | 'daysAgo' | 'expiry'>): string {
  if (row.expiry === 'expired') {
    const ago = row.daysAgo;
    return ago === 0 ? 'expired today' : `expired ${ago} ${ago === 1 ? 'day' : 'days'} ago`;
  }
  if (row.daysLeft === 0) return 'expires today';
  return `expires in ${row.daysLeft} ${row.daysLeft === 1 ? 'day' : 'days'}`;
}

/** A long token id as 1234…5678; the full id stays available to copy. */
export function shortTokenId(tokenId: string): string {
  return tokenId.length > 12 ? `${tokenId.slice(0, 6)}…${tokenId.slice(-4)}` : tokenId;
}

export type DomainSort = 'name' | 'expiry' | 'registered' | 'records';
export type DomainFilter = 'all' | 'parked' | 'not-parked' | 'no-web' | 'forwarding' | 'dnssec' | 'no-records' | 'with-records';

/** Which facts a filter needs: offered only when the service gives them (the local service does, production not). */
const FILTER_NEEDS: Partial<Record<DomainFilter, (row: DomainRow) => unknown>> = {
  forwarding: (row) => row.forwarding,
  dnssec: (row) => row.dnssec,
  'no-records': (row) => row.recordCount,
  'with-records': (row) => row.recordCount,
};

const ALL_FILTERS: Array<{ value: DomainFilter; label: string }> = [
  { value: 'all', label: 'All domains' },
  { value: 'parked', label: 'Parked' },
  { value: 'not-parked', label: 'Not parked' },
  { value: 'no-web', label: 'Without web records' },
  { value: 'forwarding', label: 'Forwarding' },
  { value: 'dnssec', label: 'DNSSEC on' },
  { value: 'no-records', label: 'No records of their own' },
  { value: 'with-records', label: 'With records of their own' },
];

/** The filters these rows can answer. */
export function domainFilters(rows: DomainRow[]): Array<{ value: DomainFilter; label: string }> {
  return ALL_FILTERS.filter((f) => !FILTER_NEEDS[f.value] || rows.some((row) => FILTER_NEEDS[f.value]!(row) !== undefined));
}

const FILTERS: Record<DomainFilter, (row: DomainRow) => boolean> = {
  all: () => true,
  parked: (row) => row.parked,
  'not-parked': (row) => !row.parked,
  'no-web': (row) => !row.web,
  forwarding: (row) => row.forwarding === true,
  dnssec: (row) => row.dnssec === true,
  'no-records': (row) => row.recordCount === 0,
  'with-records': (row) => (row.recordCount ?? 0) > 0,
};

const SORTS: Record<DomainSort, (a: DomainRow, b: DomainRow) => number> = {
  name: () => 0,
  expiry: (a, b) => a.expiresAt - b.expiresAt,
  registered: (a, b) => (a.registeredAt ?? 0) - (b.registeredAt ?? 0),
  records: (a, b) => (a.recordCount ?? 0) - (b.recordCount ?? 0),
};

/**
 * "Expires within" a number of days, or at any time. An expired domain (in grace or redemption, still listed) counts
 * as expiring within any window: it is the most urgent of all.
 */
export type ExpiresWithin = 'any' | 7 | 30 | 90;
export const EXPIRES_WITHIN: ReadonlyArray<{ value: ExpiresWithin; label: string }> = [
  { value: 'any', label: 'Any time' },
  { value: 7, label: 'Within 7 days' },
  { value: 30, label: 'Within 30 days' },
  { value: 90, label: 'Within 90 days' },
];

/** Whether a row expires within the window (daysLeft is whole days, rounded down: "within 7" is less than 7 days away). */
export function expiresWithin(row: Pick<DomainRow, 'daysLeft'>, within: ExpiresWithin): boolean {
  return within === 'any' || row.daysLeft < within;
}

export interface DomainView {
  query: string;
  filter: DomainFilter;
  /** Absent means any time. */
  within?: ExpiresWithin;
  sort: DomainSort;
  direction: 'asc' | 'desc';
}

export function viewDomains(rows: DomainRow[], options: DomainView): DomainRow[] {
  const query = options.query.trim().toLowerCase();
  const sign = options.direction === 'asc' ? 1 : -1;
  const within = options.within ?? 'any';
  return rows
    .filter((row) => FILTERS[options.filter](row) && expiresWithin(row, within) && (query === '' || row.name.includes(query)))
    .sort((a, b) => sign * (SORTS[options.sort](a, b) || a.name.localeCompare(b.name)));
}

/** A domain's week of queries in words: what its sparkline shows, for screen readers and the hover title. */
export function weekOfQueriesInWords(daily: number[]): string {
  const total = daily.reduce((a, b) => a + b, 0);
  const today = daily.at(-1) ?? 0;
  const plural = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'query' : 'queries'}`;
  return `${plural(total)} in ${daily.length} days, ${plural(today)} today`;
}
