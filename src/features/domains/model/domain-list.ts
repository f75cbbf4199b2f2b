import type { UserDomain } from '@/core/wire/user.ts';

const DAY = 86_400_000;
/** Fewer days than this left before expiry earns a warning. */
export const EXPIRY_WARNING_DAYS = 30;

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
}

export function toDomainRow(domain: UserDomain, now: number): DomainRow {
  const expiresAt = Date.parse(domain.expirationDate);
  const daysLeft = Math.floor((expiresAt - now) / DAY);
  return {
    domain,
    name: domain.normalizedDomainName,
    expiresAt,
    daysLeft,
    daysAgo: Math.max(0, -Math.ceil((expiresAt - now) / DAY)),
    expiry: expiresAt <= now ? 'expired' : daysLeft < EXPIRY_WARNING_DAYS ? 'soon' : 'ok',
    parked: domain.dnsStatus.isParkingEnabled,
    web: domain.dnsStatus.hasWebRecords,
    mail: domain.dnsStatus.hasMxRecords,
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

export type DomainSort = 'name' | 'expiry';
export type DomainFilter = 'all' | 'expiring' | 'parked' | 'not-parked' | 'no-web';

export const DOMAIN_FILTERS: Array<{ value: DomainFilter; label: string }> = [
  { value: 'all', label: 'All domains' },
  { value: 'expiring', label: 'Expiring within 30 days' },
  { value: 'parked', label: 'Parked' },
  { value: 'not-parked', label: 'Not parked' },
  { value: 'no-web', label: 'Without web records' },
];

const FILTERS: Record<DomainFilter, (row: DomainRow) => boolean> = {
  all: () => true,
  expiring: (row) => row.expiry !== 'ok',
  parked: (row) => row.parked,
  'not-parked': (row) => !row.parked,
  'no-web': (row) => !row.web,
};

export function viewDomains(rows: DomainRow[], options: { query: string; filter: DomainFilter; sort: DomainSort; direction: 'asc' | 'desc' }): DomainRow[] {
  const query = options.query.trim().toLowerCase();
  const sign = options.direction === 'asc' ? 1 : -1;
  return rows
    .filter((row) => FILTERS[options.filter](row) && (query === '' || row.name.includes(query)))
    .sort((a, b) => sign * (options.sort === 'name' ? a.name.localeCompare(b.name) : a.expiresAt - b.expiresAt || a.name.localeCompare(b.name)));
}
