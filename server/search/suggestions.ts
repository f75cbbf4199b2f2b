import type { Suggestions } from '#core/wire/search.ts';
import { labelProblem, parseDomainName } from '#core/names/index.ts';
import { SUPPORTED_TLDS } from './pricing.ts';

const PREFIXES = ['get', 'try', 'my', 'go', 'the', 'use'];
const SUFFIXES = ['app', 'hq', 'labs', 'hub', 'now', 'online', 'io', 'dao'];
/** Endings the affixed variants are offered on: the ones people recognise first. */
const AFFIX_TLDS = ['com', 'io', 'xyz', 'app', 'dev', 'co'];

/** Turns free text into a label: lowercase letters, digits and single hyphens. "My Shop!" gives my-shop. */
export function labelOf(query: string): { label: string; tld: string | null } {
  const parsed = parseDomainName(query);
  if (parsed.ok) return { label: parsed.label, tld: SUPPORTED_TLDS.includes(parsed.tld) ? parsed.tld : null };
  const text = query
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#:].*$/s, '')
    .replace(/^www\./, '');
  const [first, ...rest] = text.split('.');
  const tld = rest.length > 0 ? rest.at(-1)!.replace(/[^a-z]/g, '') : null;
  const label = first
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return { label, tld: tld && SUPPORTED_TLDS.includes(tld) ? tld : null };
}

/**
 * Deterministic variants of a query: the label on every TLD on sale (the typed ending first), then prefixed and
 * suffixed forms on the common endings. Each is a syntactically valid name; availability is for the caller to ask.
 */
export function suggestionsFor(query: string): string[] {
  const { label, tld } = labelOf(query);
  if (label === '' || labelProblem(label)) return [];
  const tlds = tld ? [tld, ...SUPPORTED_TLDS.filter((t) => t !== tld)] : [...SUPPORTED_TLDS];
  const out = new Set<string>(tlds.map((t) => `${label}.${t}`));
  const affixTlds = tld && !AFFIX_TLDS.includes(tld) ? [tld, ...AFFIX_TLDS] : AFFIX_TLDS;
  const variants = [
    ...PREFIXES.flatMap((p) => [`${p}${label}`, `${p}-${label}`]),
    ...SUFFIXES.flatMap((s) => [`${label}${s}`, `${label}-${s}`]),
  ].filter((v) => labelProblem(v) === null);
  for (const t of affixTlds) for (const v of variants) out.add(`${v}.${t}`);
  return [...out];
}

export function paginate(all: readonly string[], page: number, pageSize: number): Suggestions {
  const totalPages = Math.ceil(all.length / pageSize);
  const start = (page - 1) * pageSize;
  return {
    domains: all.slice(start, start + pageSize),
    page,
    totalPages,
    nextPage: page < totalPages ? page + 1 : null,
    pageSize,
  };
}
