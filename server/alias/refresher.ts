import { Resolver as NodeResolver } from 'node:dns/promises';
import type { Packet } from 'dns-packet';
import { plainName } from '#core/dns/names.ts';
import type { Config } from '../config.ts';
import { resolve } from '../dns-server/resolve.ts';
import type { ZoneSource } from '../dns-server/zone-source.ts';
import { serviceAuthor } from '../history/record-change.ts';
import { flattenAliasCommand, type FlatAddress } from '../zones/alias.ts';
import { startPollLoop } from '../support/poll-loop.ts';
import { changeZone, type PipelineServices } from '../zones/pipeline.ts';

/**
 * The ALIAS refresher: resolves each ALIAS record's target (from the service's own zones when it holds the target,
 * else through DNS_RESOLVER), keeps the addresses for the target's TTL clamped to [ALIAS_MIN_CACHE_SECONDS, 1 h], and
 * writes a change of them through the pipeline (server/zones/alias.ts): the name server then answers them at the
 * ALIAS's name, signed in a signed zone, and transfers them. A target that cannot be resolved (a timeout, a SERVFAIL, a
 * refused query) keeps its last addresses, served stale (RFC 8767), and is tried again after the least cache time.
 * The name server's path for a query is untouched: flattened addresses are records of the zone's snapshot like any.
 */

const MAX_CACHE_SECONDS = 3600;
const MAX_HOPS = 8;
const PARALLEL_LOOKUPS = 8;

export type TargetLookup =
  | { status: 'ok'; addresses: FlatAddress[]; ttl: number; from: 'zone' | 'resolver' }
  /** The target could not be resolved: its last addresses stay. */
  | { status: 'unresolved'; reason: string };

interface CacheEntry {
  lookup: TargetLookup & { status: 'ok' };
  expiresAt: number;
}

const RETRY_CODES_AS_EMPTY = new Set(['ENODATA', 'ENOTFOUND']);

/** A or AAAA of one name through the configured resolvers: the addresses and their least TTL; empty for NXDOMAIN/NODATA. */
async function outsideLookup(resolver: NodeResolver, name: string): Promise<TargetLookup> {
  const one = async (type: 'A' | 'AAAA') => {
    try {
      const found = type === 'A' ? await resolver.resolve4(name, { ttl: true }) : await resolver.resolve6(name, { ttl: true });
      return { ok: true as const, records: found.map((r) => ({ type, rdata: r.address, ttl: r.ttl })) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      if (RETRY_CODES_AS_EMPTY.has(code)) return { ok: true as const, records: [] };
      return { ok: false as const, reason: `${type} of ${name}: ${code}` };
    }
  };
  const [a, aaaa] = await Promise.all([one('A'), one('AAAA')]);
  if (!a.ok) return { status: 'unresolved', reason: a.reason };
  if (!aaaa.ok) return { status: 'unresolved', reason: aaaa.reason };
  const records = [...a.records, ...aaaa.records];
  return { status: 'ok', addresses: records.map(({ type, rdata }) => ({ type, rdata })), ttl: records.length > 0 ? Math.min(...records.map((r) => r.ttl)) : 60, from: 'resolver' };
}

const ipv4 = (data: Uint8Array) => Array.from(data).join('.');
function ipv6(data: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((data[i] << 8) | data[i + 1]).toString(16));
  // The stored form (RFC 5952): the longest run of two or more zero groups becomes "::".
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j += 1;
    if (j - i > best.length && j - i >= 2) best = { at: i, length: j - i };
    i = j;
  }
  if (best.at < 0) return groups.join(':');
  return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.length).join(':')}`;
}

type WireAnswer = { name: string; type: string; ttl: number; data: Uint8Array };

/** What the service's own name server answers for A and AAAA at `name`; null when it holds no zone for it. */
async function ownZoneLookup(zones: ZoneSource, name: string): Promise<{ addresses: FlatAddress[]; ttl: number; outside: string | null } | null> {
  const ask = async (type: 'A' | 'AAAA') => {
    const query: Packet = { type: 'query', id: 0, flags: 0, questions: [{ name, type, class: 'IN' }] };
    const [answer] = await resolve(query, { zones, mayTransfer: false });
    return answer;
  };
  const [a, aaaa] = await Promise.all([ask('A'), ask('AAAA')]);
  // REFUSED: not a zone of this service.
  if ((a.flags ?? 0) % 16 === 5) return null;
  const addresses: FlatAddress[] = [];
  const ttls: number[] = [];
  let outside: string | null = null;
  for (const [type, packet] of [['A', a], ['AAAA', aaaa]] as const) {
    const answers = (packet.answers ?? []) as unknown as WireAnswer[];
    const wanted = type === 'A' ? 'UNKNOWN_1' : 'UNKNOWN_28';
    for (const answer of answers) {
      if (answer.type === wanted) {
        addresses.push({ type, rdata: type === 'A' ? ipv4(answer.data) : ipv6(answer.data) });
        ttls.push(answer.ttl);
      }
    }
    // A CNAME chain that leaves the service's zones: the resolver follows the rest.
    const last = answers.at(-1);
    if (last && last.type === 'UNKNOWN_5' && addresses.length === 0) outside = readName(last.data);
  }
  return { addresses, ttl: ttls.length > 0 ? Math.min(...ttls) : 60, outside };
}

/** An uncompressed wire name (as the service writes them) to its plain text. */
function readName(data: Uint8Array): string {
  const labels: string[] = [];
  for (let i = 0; i < data.length && data[i] !== 0; i += data[i] + 1) labels.push(new TextDecoder().decode(data.subarray(i + 1, i + 1 + data[i])));
  return labels.join('.').toLowerCase();
}

/** Resolves one ALIAS target: the service's own zones first, then DNS_RESOLVER (none configured: unresolved). */
function aliasTargetResolver(zones: ZoneSource, config: Pick<Config, 'DNS_RESOLVER'>, timeoutMs = 1500) {
  let outside: NodeResolver | null = null;
  if (config.DNS_RESOLVER.length > 0) {
    outside = new NodeResolver({ timeout: timeoutMs, tries: 1 });
    outside.setServers(config.DNS_RESOLVER);
  }
  return async function lookupTarget(target: string): Promise<TargetLookup> {
    let name = plainName(target);
    for (let hop = 0; hop < MAX_HOPS; hop += 1) {
      const own = await ownZoneLookup(zones, name);
      if (own && own.outside === null) return { status: 'ok', addresses: own.addresses, ttl: own.ttl, from: 'zone' };
      if (own?.outside) {
        name = own.outside;
        continue;
      }
      if (!outside) return { status: 'unresolved', reason: `${name} lies outside this service's zones and no DNS_RESOLVER is configured` };
      return outsideLookup(outside, name);
    }
    return { status: 'unresolved', reason: `more than ${MAX_HOPS} CNAMEs from ${target}` };
  };
}

interface AliasRow {
  zone_name: string;
  name: string;
  rdata: string;
  ttl: number;
}

const signature = (alias: Pick<AliasRow, 'rdata' | 'ttl'>, addresses: FlatAddress[]) => `${alias.rdata}|${alias.ttl}|${addresses.map((a) => `${a.type} ${a.rdata}`).sort().join(',')}`;

/**
 * Starts the refresher: a round now, then every ALIAS_REFRESH_MS, and soon after any zone changes (a new ALIAS, or a
 * change of a zone an ALIAS follows). Answers `ready` (the first round), `round()` (one more soon: answers when it
 * has ended) and `stop()`.
 */
export function startAliasRefresher(
  services: PipelineServices,
  zones: ZoneSource,
  options: { lookup?: (target: string) => Promise<TargetLookup>; onError?: (error: Error) => void } = {},
) {
  const { config } = services;
  const lookup = options.lookup ?? aliasTargetResolver(zones, config);
  const cache = new Map<string, CacheEntry>();
  /** Per zone and name, what was last written (or found already so): a round writes only what differs. */
  const applied = new Map<string, string>();
  /** Targets of unresolved lookups: not tried again before this time (their last addresses stay served). */
  const retryAt = new Map<string, number>();
  const minMs = config.ALIAS_MIN_CACHE_SECONDS * 1000;
  const clampMs = (ttl: number) => Math.min(Math.max(ttl * 1000, minMs), MAX_CACHE_SECONDS * 1000);

  async function roundOnce(stopped: () => boolean): Promise<void> {
    const aliases = await services.db.query<AliasRow>("SELECT zone_name, name, rdata, ttl FROM dns_records WHERE type = 'ALIAS' ORDER BY zone_name, name");
    const now = Date.now();
    const targets = new Set(aliases.map((a) => a.rdata));
    for (const key of cache.keys()) if (!targets.has(key)) cache.delete(key);
    // Resolve what is due, one target once however many ALIASes follow it, a few at a time (a target that times out
    // does not hold the others up).
    const due = [...targets].filter((target) => {
      const cached = cache.get(target);
      return !(cached && cached.expiresAt > now) && (retryAt.get(target) ?? 0) <= now;
    });
    for (let i = 0; i < due.length; i += PARALLEL_LOOKUPS) {
      await Promise.all(
        due.slice(i, i + PARALLEL_LOOKUPS).map(async (target) => {
          const found = await lookup(target);
          if (found.status === 'ok') {
            cache.set(target, { lookup: found, expiresAt: Date.now() + clampMs(found.ttl) });
            retryAt.delete(target);
          } else {
            // Served stale: the last addresses stay in the zone; tried again after the least cache time.
            retryAt.set(target, Date.now() + minMs);
            options.onError?.(new Error(`ALIAS target ${target} not resolved (its last addresses stay served): ${found.reason}`));
          }
        }),
      );
    }
    const byZone = new Map<string, Map<string, { target: string; addresses: FlatAddress[]; signature: string }>>();
    const seen = new Set<string>();
    for (const alias of aliases) {
      const key = `${alias.zone_name} ${alias.name}`;
      seen.add(key);
      const cached = cache.get(alias.rdata);
      if (!cached) continue;
      const wanted = signature(alias, cached.lookup.addresses);
      if (applied.get(key) === wanted) continue;
      let names = byZone.get(alias.zone_name);
      if (!names) byZone.set(alias.zone_name, (names = new Map()));
      names.set(alias.name, { target: alias.rdata, addresses: cached.lookup.addresses, signature: wanted });
    }
    for (const key of applied.keys()) if (!seen.has(key)) applied.delete(key);
    for (const [zoneName, names] of byZone) {
      if (stopped()) return;
      try {
        await changeZone(services, { zoneName, by: { author: serviceAuthor('flattenAlias', reasonFor(names)) }, command: flattenAliasCommand(names) });
        for (const [name, entry] of names) applied.set(`${zoneName} ${name}`, entry.signature);
      } catch (error) {
        options.onError?.(error as Error);
      }
    }
  }

  const loop = startPollLoop(roundOnce, { pollMs: config.ALIAS_REFRESH_MS, onError: options.onError });
  // A zone's change: a new or changed ALIAS is resolved at once; targets inside that zone are read again.
  const unsubscribe = zones.onChange((zone) => {
    for (const [target, entry] of cache) {
      if (zone === null || (entry.lookup.from === 'zone' && (plainName(target) === zone || plainName(target).endsWith(`.${zone}`)))) cache.delete(target);
    }
    void loop.wake();
  });
  return {
    ready: loop.ready,
    round: loop.wake,
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}

function reasonFor(names: Map<string, { target: string; addresses: FlatAddress[] }>): string {
  const parts = [...names].map(([name, { target, addresses }]) => `${name} follows ${target}: ${addresses.length > 0 ? addresses.map((a) => a.rdata).join(', ') : 'no addresses'}`);
  return parts.join('; ');
}

