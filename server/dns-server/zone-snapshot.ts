import { nsec3ParamRdata, type SignerApexType } from '#core/dns/dnssec.ts';
import { dnssecApexRecords } from '#core/dns/dnssec-records.ts';
import { managedRecordsOf, type ManagedSettings } from '#core/dns/managed.ts';
import { parentName, withTrailingDot } from '#core/dns/names.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { publicView, signingKey, type StoredZoneKey } from '../dnssec/keys.ts';
import { breathe, signZoneInWorker } from '../dnssec/sign-in-worker.ts';
import { reusable, signZone, type Denial, type PreviousSigning, type SignatureStore, type SignedZone, type SigningKey } from '../dnssec/sign-zone.ts';
import type { RolloverPhase } from '#core/dns/rollover.ts';

export type SetType = RecordType | SignerApexType;

/** One record set: the name's records of one type. A set takes the TTL of its first record (RFC 2181 §5.2). */
export interface RecordSet {
  type: SetType;
  ttl: number;
  rdatas: string[];
  /** Wire data, for DNSSEC's apex records (the other types are written from `rdatas`). */
  wire?: Uint8Array[];
}

/** A zone as the name server answers it: stored records, managed ones (parking's, the forwarder's), and the provider's SOA and NS. */
export interface ZoneSnapshot {
  zone: string;
  serial: number;
  version: string;
  /** Relative names ('@' = apex) to their record sets. */
  nodes: Map<string, Map<SetType, RecordSet>>;
  /** Names that exist without records of their own (empty non-terminals, RFC 4592 §2.2.2). */
  interior: Set<string>;
  /** The signatures and NSEC chain while the zone is signed (DNSSEC), else null. */
  signed: SignedZone | null;
}

export interface NameServerSettings extends ManagedSettings {
  nameservers: string[];
  /** SOA timers: negative answers are cached for `minimum` seconds (RFC 2308). */
  soa: SoaTimers;
  nsTtl: number;
}

export interface SoaTimers {
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  ttl: number;
}

/** The configuration's defaults (config.ts DNS_SOA_*), for zones built without a configuration (tests, benches). */
export const DEFAULT_SOA: SoaTimers = { refresh: 14400, retry: 3600, expire: 1209600, minimum: 300, ttl: 3600 };

/** The name server's settings: its NS names (lowercase, absolute), the managed records' settings and the SOA timers. */
export function nameServerSettings(nameservers: string[], managed: ManagedSettings, soa: SoaTimers = DEFAULT_SOA): NameServerSettings {
  return { ...managed, nameservers: nameservers.map((n) => withTrailingDot(n).toLowerCase()), soa, nsTtl: 3600 };
}

function soaRdata(zone: string, serial: number, settings: NameServerSettings): string {
  const { refresh, retry, expire, minimum } = settings.soa;
  return `${settings.nameservers[0]} hostmaster.${zone}. ${serial} ${refresh} ${retry} ${expire} ${minimum}`;
}

export type StoredRecord = { name: string; type: RecordType; ttl: number; rdata: string };
export type ZoneState = { serial: number; version: string; parked: boolean; forwarding: boolean; expired?: boolean };

/** A zone's state as its row holds it (zone-rows.ts, and the form the pipeline writes: server/dns/zone-form.ts). */
export function zoneStateOf(row: { serial: number | string; version: string | null; parked: boolean; forward_enabled: boolean; expired: boolean }): ZoneState {
  return { serial: Number(row.serial), version: String(row.version), parked: row.parked, forwarding: row.forward_enabled, expired: row.expired };
}

/** The ALIAS targets' addresses as last resolved (server/zones/alias.ts), answered at the ALIASes' names. */
export type FlattenedAddresses = Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }>;
export type Dnssec = {
  key: StoredZoneKey;
  epoch: Date;
  /** NSEC unless the zone chose NSEC3. */
  denial?: Denial;
  previous?: PreviousSigning;
  /** Where the signatures made are collected (to be stored with the zone: server/dnssec/stored-signatures.ts). */
  store?: SignatureStore;
  /** The zone's stored signatures, read when it is signed whole on the worker (so only what no one signed is signed). */
  known?: () => AsyncIterable<Array<{ digest: string; rrsig: Uint8Array }>>;
  /** An algorithm rollover under way: the new key, which signs every set too, and the phase (what the apex publishes). */
  rollover?: { key: StoredZoneKey; phase: RolloverPhase; store?: SignatureStore };
};

/**
 * A zone's nodes as they are filled: the provider's SOA and NS and the managed records first, then the stored ones.
 * With `only`, the nodes of those names alone, each built exactly as the whole zone's would be (patchSnapshot).
 */
function nodeBuilder(zone: string, state: ZoneState, settings: NameServerSettings, only?: Set<string>) {
  const nodes = new Map<string, Map<SetType, RecordSet>>();
  const add = (name: string, type: SetType, ttl: number, rdata: string, wire?: Uint8Array) => {
    if (only && !only.has(name)) return;
    let node = nodes.get(name);
    if (!node) nodes.set(name, (node = new Map()));
    const set = node.get(type);
    if (!set) node.set(type, { type, ttl, rdatas: [rdata], ...(wire ? { wire: [wire] } : {}) });
    else if (!set.rdatas.includes(rdata)) {
      set.rdatas.push(rdata);
      // A set served from its wire form (DNSKEY during a rollover holds two keys) keeps every record's.
      if (wire && set.wire) set.wire.push(wire);
    }
  };
  add('@', 'SOA', settings.soa.ttl, soaRdata(zone, state.serial, settings));
  for (const ns of settings.nameservers) add('@', 'NS', settings.nsTtl, ns);
  for (const r of managedRecordsOf(zone, state, settings)) add(r.name, r.type, r.ttl, r.rdata);
  // In redemption the zone answers only the holding page: its stored records are kept, not served, until a renewal.
  // An ALIAS is never answered as such: its target's addresses are, flattened into A and AAAA.
  const addStored = (records: StoredRecord[]) => {
    if (state.expired) return;
    for (const r of records) if (r.type !== 'ALIAS' && !(r.name === '@' && (r.type === 'SOA' || r.type === 'NS'))) add(r.name, r.type, r.ttl, r.rdata);
  };
  const finish = (flattened: FlattenedAddresses, dnssec: Dnssec | undefined) => {
    if (!state.expired) for (const r of flattened) add(r.name, r.type, r.ttl, r.rdata);
    if (dnssec) for (const r of apexRecords(zone, dnssec)) add(r.name, r.type, r.ttl, r.rdata, r.wire);
    // NSEC3PARAM tells secondaries and signers the chain's parameters (RFC 5155 §4); cached as long as the proofs.
    if (dnssec?.denial?.kind === 'nsec3') add('@', 'NSEC3PARAM', nsecTtlOf(settings), '1 0 0 -', nsec3ParamRdata());
  };
  return { nodes, addStored, finish };
}

/** DNSKEY, CDNSKEY and CDS: the zone's key, or during a rollover the keys its phase publishes. */
function apexRecords(zone: string, dnssec: Dnssec) {
  const rollover = dnssec.rollover && { key: publicView(zone, dnssec.rollover.key.public_key), phase: dnssec.rollover.phase };
  return dnssecApexRecords(publicView(zone, dnssec.key.public_key), rollover);
}

/** The zone as last signed with `key`: the previous version's own signing, or its rollover key's (the key that stays). */
function previousFor(previous: PreviousSigning | undefined, key: Pick<SigningKey, 'dnskey'>): PreviousSigning | undefined {
  const same = (signed: SignedZone | undefined) => !!signed && signed.dnskey.length === key.dnskey.length && signed.dnskey.every((b, i) => b === key.dnskey[i]);
  if (!previous) return undefined;
  if (same(previous.signed)) return previous;
  return same(previous.signed.also) ? { nodes: previous.nodes, signed: previous.signed.also as SignedZone } : undefined;
}

/**
 * The zone signed on the event loop with its key and, during a rollover, with the new key too (`also`). `changed`:
 * the only names that can differ from the previous version (patchSnapshot).
 */
function signHere(zone: string, nodes: Map<string, Map<SetType, RecordSet>>, dnssec: Dnssec, settings: NameServerSettings, changed?: Set<string>): SignedZone {
  const sign = (stored: StoredZoneKey, store: SignatureStore | undefined) => {
    const key = signingKey(zone, stored);
    return signZone(zone, nodes, key, { epoch: dnssec.epoch, nsecTtl: nsecTtlOf(settings), previous: previousFor(dnssec.previous, key), store, changed, denial: dnssec.denial });
  };
  const signed = sign(dnssec.key, dnssec.store);
  if (dnssec.rollover) signed.also = sign(dnssec.rollover.key, dnssec.rollover.store);
  return signed;
}

/** Names that exist without records of their own (empty non-terminals): every missing name above a node. */
function addInterior(interior: Set<string>, nodes: Map<string, unknown>, names: Iterable<string>) {
  for (const name of names) {
    for (let above = parentName(name); above !== null; above = parentName(above)) if (!nodes.has(above)) interior.add(above);
  }
}

// Negative answers are cached for the SOA's minimum, and so are the NSEC records that prove them (RFC 9077).
const nsecTtlOf = (settings: NameServerSettings) => Math.min(settings.soa.minimum, settings.soa.ttl);

export function buildSnapshot(
  zone: string,
  state: ZoneState,
  records: StoredRecord[],
  settings: NameServerSettings,
  dnssec?: Dnssec,
  /** The ALIAS targets' addresses as last resolved (server/zones/alias.ts), answered at the ALIASes' names. */
  flattened: FlattenedAddresses = [],
): ZoneSnapshot {
  const { nodes, addStored, finish } = nodeBuilder(zone, state, settings);
  addStored(records);
  finish(flattened, dnssec);
  const interior = new Set<string>();
  addInterior(interior, nodes, nodes.keys());
  const signed = dnssec ? signHere(zone, nodes, dnssec, settings) : null;
  return { zone, serial: state.serial, version: state.version, nodes, interior, signed };
}

/** From this many names on, a zone signed without signatures to reuse is signed on a worker thread. */
const WORKER_NAMES = 2000;

/**
 * `buildSnapshot` for a big zone, in slices so the event loop keeps answering other zones: the stored records come
 * page by page, the nodes are walked a slice per turn, and a zone signed anew (no signatures of the same key and
 * epoch to reuse: a first load, a renewal) is signed on a worker thread. `onBulk` is told when that starts.
 */
export async function buildSnapshotInSlices(
  zone: string,
  state: ZoneState,
  pages: AsyncIterable<StoredRecord[]>,
  settings: NameServerSettings,
  dnssec: Dnssec | undefined,
  flattened: FlattenedAddresses,
  onBulk: () => void = () => {},
): Promise<ZoneSnapshot> {
  const { nodes, addStored, finish } = nodeBuilder(zone, state, settings);
  for await (const page of pages) {
    addStored(page);
    await breathe();
  }
  finish(flattened, dnssec);
  const interior = new Set<string>();
  const names = [...nodes.keys()];
  for (let i = 0; i < names.length; i += SLICE) {
    addInterior(interior, nodes, names.slice(i, i + SLICE));
    await breathe();
  }
  let signed: SignedZone | null = null;
  if (dnssec) {
    const options = { epoch: dnssec.epoch, nsecTtl: nsecTtlOf(settings) };
    const sign = async (stored: StoredZoneKey, store: SignatureStore | undefined): Promise<SignedZone> => {
      const key = signingKey(zone, stored);
      const previous = previousFor(dnssec.previous, key);
      // The worker hands back NSEC chains only: an NSEC3 zone is signed here, on the event loop.
      if (reusable(previous, key, options) || nodes.size < WORKER_NAMES || dnssec.denial?.kind === 'nsec3') {
        return signZone(zone, nodes, key, { ...options, previous, store, denial: dnssec.denial });
      }
      onBulk();
      const kept = store ? { known: dnssec.known?.() ?? (async function* () {})(), fresh: store.fresh } : undefined;
      return signZoneInWorker(zone, nodes, { ...key, pkcs8: Buffer.from(stored.private_key, 'base64') }, options, kept);
    };
    signed = await sign(dnssec.key, dnssec.store);
    // During a rollover the new key signs every set too.
    if (dnssec.rollover) signed.also = await sign(dnssec.rollover.key, dnssec.rollover.store);
  }
  return { zone, serial: state.serial, version: state.version, nodes, interior, signed };
}

const SLICE = 2000;

/**
 * A zone's next version built from the one before when only some names changed (its history says which:
 * snapshot-builder.ts): the nodes of `names` are built again, as buildSnapshot builds them, from those names' stored
 * records, and every other node is shared with `previous`. The zone's state (parking, forwarding, redemption), ALIAS
 * addresses and key must be the ones `previous` was built with, and `names` must hold the apex (its SOA's serial
 * moved). A signed zone re-signs only these names and the NSEC records next to them.
 */
export function patchSnapshot(
  previous: ZoneSnapshot,
  names: Set<string>,
  state: ZoneState,
  records: StoredRecord[],
  settings: NameServerSettings,
  dnssec: Dnssec | undefined,
  flattened: FlattenedAddresses,
): ZoneSnapshot {
  const zone = previous.zone;
  const { nodes: rebuilt, addStored, finish } = nodeBuilder(zone, state, settings, names);
  addStored(records);
  finish(flattened, dnssec);
  const nodes = new Map(previous.nodes);
  const removed: string[] = [];
  for (const name of names) {
    const node = rebuilt.get(name);
    if (node) nodes.set(name, node);
    else if (nodes.delete(name)) removed.push(name);
  }
  const interior = patchInterior(previous.interior, nodes, names, removed);
  const signed = dnssec ? signHere(zone, nodes, dnssec, settings, names) : null;
  return { zone, serial: state.serial, version: state.version, nodes, interior, signed };
}

/** Past this many names gone at once, the empty non-terminals are found again from every name rather than patched. */
const PATCH_REMOVED_AT = 16;

/** The empty non-terminals after `names` changed: a name gone stays as one if names remain below it, and the names above it stop being one when none does. */
function patchInterior(before: Set<string>, nodes: Map<string, unknown>, names: Set<string>, removed: string[]): Set<string> {
  if (removed.length > PATCH_REMOVED_AT) {
    const fresh = new Set<string>();
    addInterior(fresh, nodes, nodes.keys());
    return fresh;
  }
  const interior = new Set(before);
  const present = [...names].filter((name) => nodes.has(name));
  for (const name of present) interior.delete(name);
  addInterior(interior, nodes, present);
  const hasBelow = (name: string) => {
    const suffix = `.${name}`;
    for (const key of nodes.keys()) if (key.endsWith(suffix)) return true;
    return false;
  };
  for (const name of removed) {
    if (hasBelow(name)) interior.add(name);
    for (let above = parentName(name); above !== null; above = parentName(above)) if (interior.has(above) && !hasBelow(above)) interior.delete(above);
  }
  return interior;
}
