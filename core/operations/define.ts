import type { z } from 'zod';
import type { DnsRecord } from '../wire/dns.ts';
import type { HistoryEntry, RecordChange, ZoneChangeFacts } from '../wire/history.ts';
import type { TypeRegistry } from '../wire/eip712.ts';

/**
 * What one operation is, declared once: its wire form (method, path, auth, schemas), and for a signed one its
 * EIP-712 structs, what its zone history entry holds, how it is described in words and which signed fields the
 * entry must agree with. Everything else (the type registry, /eip712/types-for-method, the OpenAPI document, the
 * router, the history check, the dashboard's words for an entry) is derived from the declarations.
 *
 * auth: none = public; optional = anonymous or any credential; siwe = SIWE token, API key or EIP-712;
 * write = EIP-712 envelope or API key (SIWE alone does not authorise a write).
 */
export type AuthMode = 'none' | 'optional' | 'siwe' | 'write';
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path below /v-next, e.g. /orders/{orderId}. */
  path: string;
  tag: string;
  summary: string;
  auth: AuthMode;
  /** Query parameters (GET) or JSON body (others). */
  input?: z.ZodType;
  params?: z.ZodObject;
  output: z.ZodType;
  /** Errors it answers beyond 400/401/413/429, which follow from its method, input and auth. */
  errors?: readonly number[];
  /** Its EIP-712 form; absent: it takes no envelope. */
  signed?: Signed;
  /** For an operation that changes a zone: which zone, and how. */
  zone?: ZoneEffect;
  /** For an operation that writes the zone's history: what its entry holds and how the dashboard says it. */
  history?: HistoryDescription;
  /**
   * What else a client may be showing that this write changes, beyond what its `zone` and `history` already say
   * (./changes.ts derives the rest): what the dashboard reads again after it succeeds.
   */
  changes?: Changes;
}

/**
 * The facts a client shows that a write may change. A domain's: its records, what DNS answers for it, its settings
 * (forwarding, DNSSEC, auto-renew), its history, who has access, its registration (availability, holder, expiry). An
 * account's: its domains (held and shared with it), balance, orders, API keys, or everything (`session`: whose data
 * the service answers with).
 */
export type DomainFact = 'records' | 'answers' | 'settings' | 'history' | 'access' | 'registration';
export type AccountFact = 'domains' | 'balance' | 'orders' | 'api-keys' | 'session';

interface Changes {
  /** The domain whose facts change, from the request (body, query and path parameters together); absent: the zone's. */
  of?: (input: never) => string;
  domain?: readonly DomainFact[];
  account?: readonly AccountFact[];
}

/** An operation's EIP-712 form. */
export interface Signed {
  /** The structs it introduces, by name (shared nested ones live in ./structs.ts), in the order they are published. */
  structs: TypeRegistry;
  /** The envelope types it accepts, in the order a client tries them (it signs with the first whose struct covers every field it sends). */
  accepted: readonly string[];
  /** Payload fields an accepted type leaves unsigned but the service still takes, by accepted type. */
  unsignedAccepted?: Readonly<Record<string, readonly string[]>>;
  /**
   * Which signed fields its history entry must agree with, in words for each difference (empty: they agree); run on
   * an entry signed with one of the structs this operation accepts. Absent: its entry cannot be compared.
   */
  matches?: (check: PayloadCheck) => string[];
  /** What the wallet signs, in one line for the signing notice (the bulk actions say it before the wallet opens). */
  notice?: (input: never) => string;
}

/**
 * How the operation changes a zone. `content`: changes what the zone answers (one serial step, one history entry per
 * accepted change); `history-only`: a history entry but no serial step. `when: 'order'`: not at the request, but when
 * the order it creates finishes.
 */
export interface ZoneEffect {
  of: (input: never) => string;
  change: 'content' | 'history-only';
  when?: 'request' | 'order';
}

/**
 * What an operation's zone history entry holds, and how the dashboard's history names it. The settings it may carry
 * besides records are flags named as the history's settings (ZONE_SETTINGS): `parking: true`, `dnssec: true`, …
 */
interface HistoryDescription extends Partial<Record<Exclude<keyof ZoneChangeFacts, 'changes'>, true>> {
  /** The kinds of record change the entry may list (none: it lists no record). */
  changes: ReadonlyArray<RecordChange['op']>;
  /** The entry in a few words, as the history list titles it ("Added a record"; counted when it lists several). */
  words: string;
  /** A title of its own for some entries (forwarding names its target); undefined: the usual title. */
  title?: (entry: HistoryEntry) => string | undefined;
}

type Fields = Record<string, unknown>;

/** What a `matches` function is given: the entry, the payload as signed, and helpers that compare records in words. */
export interface PayloadCheck {
  entry: HistoryEntry;
  /** The payload struct signed (e.g. CreateTypedDnsRecord). */
  struct: string;
  /** The payload projected onto the signed struct: exactly what the signature covers. */
  payload: Fields;
  /** The payload's fields the struct `name` signs, of `value` (a part of the envelope's payload as received). */
  signedFields: (value: unknown, name: string) => Fields;
  /** The envelope's payload as received. */
  received: unknown;
  made: DnsRecord[];
  updated: RecordChange[];
  deleted: Array<DnsRecord | null>;
  /** What differs between a signed record and the one the entry says was written. */
  recordProblems: (where: string, signed: Fields, record: DnsRecord) => string[];
  /** The ids of these records, sorted, in words. */
  ids: (list: Array<DnsRecord | null>) => string;
}

/** Declares one operation, keeping its literal types (the id, the schemas) for the types derived from it. */
export const op = <T extends Operation>(o: T): T => o;

/** A typed field of an EIP-712 struct. */
export const f = (name: string, type: string) => ({ name, type });
