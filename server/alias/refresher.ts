import * as dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import { plainName } from '#core/dns/names.ts';
import type { Config } from '../config.ts';
import { nameResolution, type OwnZones } from '../dns-client/resolution.ts';
import { decodeReply, RCODE, storedAnswers } from '../dns-client/reply.ts';
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
const PARALLEL_LOOKUPS = 8;

export type TargetLookup =
  | { status: 'ok'; addresses: FlatAddress[]; ttl: number; from: 'zone' | 'resolver' }
  /** The target could not be resolved: its last addresses stay. */
  | { status: 'unresolved'; reason: string };

interface CacheEntry {
  lookup: TargetLookup & { status: 'ok' };
  expiresAt: number;
}

/** The own zones as the name server answers them (ALIASes flattened, wildcards, CNAME chains within a zone); null where it refuses. */
function servedZones(zones: ZoneSource): OwnZones {
  return async (name, type) => {
    const query: Packet = { type: 'query', id: 0, flags: 0, questions: [{ name, type: type as 'A', class: 'IN' }] };
    const [answer] = await resolve(query, { zones, mayTransfer: false });
    // REFUSED: not a zone of this service.
    if (((answer.flags ?? 0) & 0x0f) === RCODE.REFUSED) return null;
    // Read as any answer from a socket is: one decoder, one stored form.
    const reply = decodeReply(dnsPacket.encode(answer));
    return { rcode: reply.rcode, answers: storedAnswers(reply.answers) };
  };
}

/** Resolves one ALIAS target's A and AAAA by the service's resolution policy; NXDOMAIN or NODATA is no addresses. */
function aliasTargetResolver(zones: ZoneSource, config: Pick<Config, 'DNS_RESOLVER'>, timeoutMs = 1500) {
  const resolveName = nameResolution({ ownZones: servedZones(zones), resolvers: config.DNS_RESOLVER, timeoutMs, tries: 1 });
  return async function lookupTarget(target: string): Promise<TargetLookup> {
    const found = await Promise.all((['A', 'AAAA'] as const).map((type) => resolveName(target, type)));
    const addresses: FlatAddress[] = [];
    const ttls: number[] = [];
    for (const resolved of found) {
      if (resolved.status === 'unresolved') return { status: 'unresolved', reason: resolved.reason };
      if (resolved.status !== 'ok') continue;
      addresses.push(...resolved.answers.map((a) => ({ type: a.type as FlatAddress['type'], rdata: a.rdata })));
      ttls.push(resolved.ttl);
    }
    const from = found.every((resolved) => resolved.status !== 'unresolved' && resolved.from === 'zone') ? 'zone' : 'resolver';
    return { status: 'ok', addresses, ttl: ttls.length > 0 ? Math.min(...ttls) : 60, from };
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

