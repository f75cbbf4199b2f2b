/**
 * What a grant or a scoped API key covers (contract: Access), as pure functions both sides use: the service checks a
 * change against them in its one authorisation place (server/access/authorise.ts), the dashboard says the same in
 * words and refuses an out-of-scope change before the wallet opens.
 */

export const GRANT_ROLES = ['viewer', 'editor', 'manager'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];

/** What a role may do beyond the one before it. */
const RANK: Record<GrantRole, number> = { viewer: 0, editor: 1, manager: 2 };
export const roleAtLeast = (role: GrantRole, needed: GrantRole) => RANK[role] >= RANK[needed];

/** Names and types: empty = every one. A name covers itself; `*.x` covers every name below `x` (not `x`); `*` every name below the apex. */
export interface RecordScope {
  names: readonly string[];
  types: readonly string[];
}

const plain = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** Whether a relative record name (`@`, `www`, `_acme.www`) lies in the scope's names. */
export function nameCovered(names: readonly string[], name: string): boolean {
  if (names.length === 0) return true;
  const n = plain(name);
  return names.some((pattern) => {
    const p = plain(pattern);
    if (p === '*') return n !== '@';
    if (p.startsWith('*.')) {
      const base = p.slice(2);
      // `*.@` is `*`: every name below the apex.
      if (base === '@') return n !== '@';
      return n.endsWith(`.${base}`);
    }
    return n === p;
  });
}

const typeCovered = (types: readonly string[], type: string) => types.length === 0 || types.some((t) => t.toUpperCase() === type.toUpperCase());

const recordCovered = (scope: RecordScope, record: { name: string; type: string }) => nameCovered(scope.names, record.name) && typeCovered(scope.types, record.type);

/** A list in words: "A", "A and AAAA", "A, AAAA and MX". */
function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const nameInWords = (name: string) => (name === '*' || name === '*.@' ? 'every name below the apex' : name.startsWith('*.') ? `every name below ${name.slice(2)}` : name === '@' ? 'the apex (@)' : name);

/** "A and AAAA under www only", "every type at every name". */
export function scopeInWords(scope: RecordScope): string {
  const types = scope.types.length === 0 ? 'every type' : listInWords([...scope.types]);
  const names = scope.names.length === 0 ? 'at every name' : `under ${listInWords(scope.names.map(nameInWords))} only`;
  return `${types} ${names}`;
}

/** What each role may do, in words. */
export const ROLE_WORDS: Record<GrantRole, string> = {
  viewer: 'may read the history and analytics',
  editor: 'may add, change and delete records',
  manager: 'may add, change and delete records, and change parking, forwarding and DNSSEC',
};

/** What a grant allows, in one sentence ("0xab…cd may add, change and delete A records at www of example.com until 31 March 2027"). */
export function grantInWords(grant: { grantee: string; role: GrantRole; names: readonly string[]; types: readonly string[]; expiresAt: string; zoneName: string }): string {
  const until = new Date(grant.expiresAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const who = `${grant.grantee.slice(0, 4)}…${grant.grantee.slice(-4)}`;
  const what = grant.role === 'viewer' ? ROLE_WORDS.viewer : `${ROLE_WORDS[grant.role]} (${scopeInWords(grant)})`;
  return `${who} ${what} of ${grant.zoneName} until ${until}`;
}

/** The first record a change touches outside the scope, before or after, in words; null when every one lies in it. */
export function outOfScope(scope: RecordScope, records: ReadonlyArray<{ name: string; type: string } | null>): string | null {
  for (const record of records) {
    if (record && !recordCovered(scope, record)) return `${record.type} at ${record.name}`;
  }
  return null;
}

/** A scope's list as a person types it ("www, api" or "A TXT") → ["www", "api"]; blanks dropped. */
export const splitList = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
