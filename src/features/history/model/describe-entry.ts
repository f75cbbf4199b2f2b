import { printNotes } from '#core/dns/record-notes.ts';
import { ROLLOVER_PHASE_WORDS } from '#core/dns/rollover.ts';
import { isErc6492Signature, type Hex } from 'viem';
import { CHAIN_CHANGE_WORDS, DOOR_CHANGE_WORDS, SERVICE_CHANGE_WORDS, ZONE_SETTINGS, type HistoryEntry, type RecordChange, type SigningChoiceFacts } from '#core/wire/history.ts';

type ZoneSetting = (typeof ZONE_SETTINGS)[number];
import type { RecordType } from '#core/wire/dns.ts';
import type { Forwarding } from '#core/wire/forwarding.ts';
import { shortAddress } from '@/lib/format.ts';
import { operationById } from '#core/operations/index.ts';
import { scopeInWords } from '#core/access/scope.ts';
import type { HistoryClient } from '#core/headers.ts';

/** What the entry did, in a few words: its operation's own title, a flip it made, or its operation's words (counted). */
export function entryTitle(entry: HistoryEntry): string {
  const described = operationById(entry.operation)?.history;
  const own = described?.title?.(entry);
  if (own !== undefined) return own;
  if (entry.transfer) return transferInWords(entry.transfer);
  if (entry.parking && entry.parking.before !== entry.parking.after) return entry.parking.after ? 'Parked the domain' : 'Unparked the domain';
  if (entry.dnssec && entry.dnssec.before !== entry.dnssec.after) return entry.dnssec.after ? 'Turned DNSSEC on' : 'Turned DNSSEC off';
  const words = described?.words ?? (serviceWords[entry.operation] ?? entry.operation);
  const count = entry.changes.length;
  return count > 1 ? `${words} (${count})` : words;
}

const serviceWords: Record<string, string> = { ...SERVICE_CHANGE_WORDS, ...CHAIN_CHANGE_WORDS, ...DOOR_CHANGE_WORDS };

/** A transfer of the domain's token, as the History tab titles it: to whom, by whom, where. */
function transferInWords(transfer: NonNullable<HistoryEntry['transfer']>): string {
  return `Sent to ${shortAddress(transfer.to)} by ${shortAddress(transfer.from)} on the chain`;
}

/** A forwarding setting in words: off, or where to, with which status and whether the path is kept. */
function forwardingInWords(f: Forwarding): string {
  if (!f.enabled) return 'off';
  return `to ${f.targetUrl} (${f.statusCode}, ${f.keepPath ? 'keeping the path' : 'dropping the path'})`;
}

/** The entry's forwarding before and after, when it has them. */
export function forwardingChange(entry: HistoryEntry): string | null {
  return entry.forwarding ? `Forwarding: ${forwardingInWords(entry.forwarding.before)} → ${forwardingInWords(entry.forwarding.after)}` : null;
}

const onOff = (on: boolean) => (on ? 'on' : 'off');
const signingInWords = (choice: SigningChoiceFacts | null) =>
  choice ? `algorithm ${choice.algorithm} (${choice.algorithm === 15 ? 'Ed25519' : 'ECDSA P-256'}), ${choice.denial === 'nsec3' ? `NSEC3${choice.nsec3OptOut ? ' with opt-out' : ''}` : 'NSEC'}` : 'unsigned';
/** Each setting a change can carry, in words: a new kind of setting (ZONE_SETTINGS) does not compile without its line. */
const SETTING_LINES: { [K in ZoneSetting]: (entry: HistoryEntry & Required<Pick<HistoryEntry, K>>) => string } = {
  parking: (entry) => `Parking: ${onOff(entry.parking.before)} → ${onOff(entry.parking.after)}`,
  dnssec: (entry) => `DNSSEC: ${onOff(entry.dnssec.before)} → ${onOff(entry.dnssec.after)}`,
  dnssecSigning: ({ dnssecSigning }) => `Signing: ${signingInWords(dnssecSigning.before)} → ${signingInWords(dnssecSigning.after)}`,
  dnssecRollover: ({ dnssecRollover: step }) =>
    `Algorithm rollover ${step.from.algorithm} (key ${step.from.keyTag}) → ${step.to.algorithm} (key ${step.to.keyTag}): ${step.dsAtParent !== undefined ? `the owner says the parent holds the DS of key ${step.dsAtParent}; ` : ''}${ROLLOVER_PHASE_WORDS[step.phase.after]}`,
  forwarding: (entry) => forwardingChange(entry)!,
  transfer: ({ transfer }) => `Owner: ${transfer.from} → ${transfer.to}, in transaction ${transfer.txHash} (block ${transfer.blockNumber}). Records, DNSSEC and forwarding stayed; auto-renew was switched off.`,
  access: ({ access }) =>
    `${access.action === 'grant' ? 'Granted' : 'Revoked'}: ${shortAddress(access.grantee)} as ${access.role} (${scopeInWords(access)}) until ${access.expiresAt.slice(0, 10)}`,
  expired: (entry) => (entry.expired.after ? 'Expired holding page: on (the records stopped answering)' : 'Expired holding page: off (the records answer again)'),
};

/** The settings the entry changed, one line each, in the order the entry lists them. */
export function settingLines(entry: HistoryEntry): string[] {
  return ZONE_SETTINGS.filter((key) => entry[key] !== undefined).map((key) => (SETTING_LINES[key] as (e: HistoryEntry) => string)(entry));
}

/** The client or door a change came through, in words: a new one does not compile without its line. */
const THROUGH: Record<HistoryClient, string> = {
  mcp: 'through MCP (an AI agent)',
  rfc2136: 'through DNS UPDATE (RFC 2136, signed with the key’s TSIG form)',
  dyndns2: 'through DynDNS2 (ddclient or a router)',
};

/** How the change was authorised, in words a person reads, and the client or door it came through ("through MCP" when an agent made or prepared it). */
export function howSigned(entry: HistoryEntry): string {
  const proof = howProved(entry);
  return entry.actor.client ? `${proof}, ${THROUGH[entry.actor.client]}` : proof;
}

function howProved(entry: HistoryEntry): string {
  if (entry.actor.via === 'api-key') return `with an API key${entry.actor.apiKeyId ? ` (${entry.actor.apiKeyId.slice(0, 8)})` : ''}, no signature kept`;
  if (entry.actor.via === 'order') return 'applied when the registration order finished';
  if (entry.actor.via === 'service') return `made by the service${entry.actor.reason ? `: ${entry.actor.reason}` : ''}`;
  if (entry.actor.via === 'chain') return `a transaction on the chain${entry.transfer ? ` (${shortHash(entry.transfer.txHash)})` : ''}, read by the service`;
  // A key's signature and a 1-of-1 Safe's look alike (65 bytes): which one it is, Verify finds out.
  const signature = entry.signed?.signature as Hex | undefined;
  const undeployed = signature !== undefined && isErc6492Signature(signature);
  return `signed (EIP-712${entry.signed ? `, ${entry.signed.primaryType.replace(/Envelope$/, '')}` : ''})${undeployed ? ' by an account not deployed yet (ERC-6492)' : ''}`;
}

const shortHash = (hash: string) => (hash.length > 14 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash);

/** Who made the change: the short address, and the account it acted for. */
export function whoInWords(entry: HistoryEntry): string {
  if (entry.actor.via === 'service') return 'The service';
  const wallet = shortAddress(entry.actor.wallet);
  const who = entry.actor.account ? `${wallet} for the account ${shortAddress(entry.actor.account)}` : wallet;
  const grant = entry.actor.grant;
  return grant ? `${who} under the ${grant.role} grant from ${shortAddress(grant.signed.signer)} (owner)` : who;
}

/** A record change's before and after, as lines of a diff; a record's comment and tags as its zone-file comment (`; text [tags: a, b]`). */
export function changeLines(change: RecordChange): Array<{ sign: '-' | '+'; text: string }> {
  const line = (r: NonNullable<RecordChange['before']>) => [`${r.name} ${r.ttl} ${r.type} ${r.rdata}`, printNotes(r)].filter(Boolean).join(' ');
  return [...(change.before ? [{ sign: '-' as const, text: line(change.before) }] : []), ...(change.after ? [{ sign: '+' as const, text: line(change.after) }] : [])];
}

export interface HistoryFilter {
  name: string;
  type: RecordType | 'all';
  /** One record's own history (from its row menu). */
  recordId: string | null;
}

export const NO_FILTER: HistoryFilter = { name: '', type: 'all', recordId: null };

/** The entries that touch a record matching the filter; with no filter, all of them (parking changes included). */
export function filterEntries(entries: readonly HistoryEntry[], filter: HistoryFilter): HistoryEntry[] {
  const name = filter.name.trim().toLowerCase();
  if (!name && filter.type === 'all' && !filter.recordId) return [...entries];
  return entries.filter((e) =>
    e.changes.some((c) =>
      [c.before, c.after].some(
        (r) => r && (!filter.recordId || r.id === filter.recordId) && (filter.type === 'all' || r.type === filter.type) && (!name || r.name.toLowerCase().includes(name)),
      ),
    ),
  );
}
