/**
 * SPF's syntax (RFC 7208 §4.6, §5, §6): one home for the record editor's check (a malformed SPF is refused where it is
 * typed, rule DNS_SPF_SYNTAX) and the mail check's (records stored before, or served by others).
 */

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);

/** Whether a TXT record's text is an SPF record (`v=spf1`, then a space or nothing). */
export const isSpf = (text: string) => /^v=spf1(\s|$)/i.test(text.trim());

/** Why an SPF term is malformed, or null. */
function termProblem(term: string): string | null {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
  if (modifier) return modifier[2] === '' && ['redirect', 'exp'].includes(modifier[1].toLowerCase()) ? `"${term}" names no domain` : null;
  const mechanism = /^([+?~-]?)([a-z0-9]+)(?::(.*?))?(\/\d+(\/\/\d+)?)?$/i.exec(term);
  if (!mechanism) return `"${term}" is not a mechanism or a modifier`;
  const name = mechanism[2].toLowerCase();
  if (!MECHANISMS.has(name)) return `"${mechanism[2]}" is not an SPF mechanism`;
  if (['include', 'exists'].includes(name) && !mechanism[3]) return `"${term}" needs a domain (${name}:example.com)`;
  if (['ip4', 'ip6'].includes(name) && !mechanism[3]) return `"${term}" needs an address (${name}:192.0.2.0/24)`;
  if (name === 'all' && (mechanism[3] || mechanism[4])) return `"all" takes no argument`;
  return null;
}

/** What is malformed in an SPF record's text, term by term (empty: well formed). */
export function spfProblems(text: string): string[] {
  return text.trim().split(/\s+/).slice(1).map(termProblem).filter((p): p is string => p !== null);
}
