import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { answerClientErrors, closeAfterRefusedBody } from './http/connection.ts';
import { resolve } from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createApp } from './app.ts';
import { mountMcp } from './mcp/http.ts';
import { databaseStores } from './mcp/stores.ts';
import { handlers } from './routes/index.ts';
import { mountDocs } from './routes/docs.ts';
import { databaseOwnership } from './ownership/database-ownership.ts';
import { startOrderWorker } from './orders/worker.ts';
import { startAutoRenewWorker } from './renewal/worker.ts';
import { databaseCredit } from './balance/database-credit.ts';
import { startLocalChain, type LocalChain } from './chain/local-chain.ts';
import { reconcileChain } from './chain/reconcile-chain.ts';
import { createX402Rail, type X402Rail } from './x402/rail.ts';
import { recoverPurchases } from './x402/recover.ts';
import { startAccountJournal } from './chain/account-journal.ts';
import { serviceHeaders } from '#core/headers.ts';
import { answerCache, startDnsServer, type AnswerCache, type DnsServer } from './dns-server/server.ts';
import { noCounting, queryCounter } from './dns-server/query-counts.ts';
import { catalogSource, withCatalog, type CatalogSource } from './dns-server/catalog.ts';
import { notifyOnChange } from './dns-server/secondaries.ts';
import { parseTsigKeys } from './dns-server/tsig.ts';
import { packetCacheBytes } from './dns-server/packet-cache.ts';
import { updateDoor } from './doors/update/door.ts';
import { configuredSettings, dnsServingOptions, snapshotCacheBytes } from './dns-server/serving-options.ts';
import { zoneSource, type ZoneSource } from './dns-server/zone-source.ts';
import { ZoneCache } from './dns/zone-read.ts';
import { mountDoh } from './http/doh.ts';
import { startSignatureRenewal } from './zones/signature-renewal.ts';
import { startRolloverWorker } from './zones/dnssec-rollover.ts';
import { startAliasRefresher } from './alias/refresher.ts';
import { startTransferFollower, type TransferFollower } from './zones/transfers.ts';
import { startExpiryWorker } from './zones/expiry.ts';
import { startForwarder, type Forwarder } from './forwarder/forwarder.ts';
import type { Services } from './services.ts';
import { realClock, testClock, type ServiceClock } from './clock/service-clock.ts';
import { closerStack, type Closers } from './support/closers.ts';
import { startPollLoop } from './support/poll-loop.ts';
import type { Hono } from 'hono';
import { syncChainTime } from './chain/chain-time.ts';
import { mountDevClock } from './routes/dev-clock.ts';

export interface RunningService {
  /** e.g. http://127.0.0.1:8787 */
  origin: string;
  /** origin + /v-next */
  baseUrl: string;
  services: Services;
  /** The local chain (CHAIN=anvil): its RPC URL and contract addresses are what a wallet or an e2e run needs. */
  chain: LocalChain | null;
  /** The DNS server (DNS_PORT set): the port it answers on, UDP and TCP. */
  dns: DnsServer | null;
  /** The URL forwarder (FORWARD_PORT set). */
  forwarder: Forwarder | null;
  /** On a chain, the follower of the registry's Transfer logs: `sync()` records every transfer mined until now. */
  transfers: TransferFollower | null;
  /** NOTIFY to DNS_ALSO_NOTIFY (set, with a DNS server): how many were sent and answered. */
  notifier?: { readonly sent: number; readonly answered: number } | null;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates it, starts the local chain when CHAIN=anvil, builds the services once (on the chain
 * when there is one), starts the workers, serves HTTP and DNS. Each part is pushed on one stack of closers as soon as
 * it runs: a start that fails closes what it had started, last first, and `close()` unwinds the same stack.
 */
export async function startService(config: Config): Promise<RunningService> {
  const closers = closerStack();
  try {
    return await startParts(config, closers);
  } catch (error) {
    // The start's own failure is what the caller hears; one in closing is only reported.
    await closers.close().catch((closeError: Error) => console.warn(`Start failed; then ${closeError.message}`));
    throw error;
  }
}

/** The service's parts in the order they depend on each other (see each step). */
async function startParts(config: Config, closers: Closers): Promise<RunningService> {
  const db = await openMigratedDatabase(config, closers);
  const clock = await startClock(config, db, closers);
  const chain = await startChainOnClock(config, db, clock, closers);
  const x402 = chain?.deployment.usdToken ? await createX402Rail(chain.clients, chain.deployment.usdToken) : null;
  const forwarder = config.FORWARD_PORT === undefined ? null : await startForwarder({ db, host: config.HOST, port: config.FORWARD_PORT });
  if (forwarder) closers.push('the URL forwarder', () => forwarder.close());
  const now = () => clock.now();
  if (chain && x402) await recoverX402(db, x402, chain, now);
  if (chain?.ownsNode) await startChainJournal(chain, db, closers);
  // Orders made over HTTP wake the order worker, which starts after the services it is given.
  const orders = { wake: () => {} };
  let dnsPort: number | null = null;
  const services = buildServices({ config, db, chain, x402, forwarder, now, notifyOrders: () => orders.wake(), dnsPort: () => dnsPort }, closers);
  const zones = await startZones(config, db, closers);
  const workers = await startWorkers(services, zones.zones, chain, orders, closers);
  clock.follow(workers.followClock);
  const app = createApp(services, handlers, (a) => {
    mountDocs(a, services.headers);
    if (config.DEV_CONTROLS) mountDevClock(a, clock);
    mountDoh(a, zones.zones, services.queryCounter, zones.answers);
    mountMcp(a, config, databaseStores(services.db), () => services.now());
  });
  const server = await serveHttp(app, config, closers);
  const dns = await startDns(config, services, zones, closers);
  dnsPort = dns?.port ?? null;
  // NOTIFY the secondaries from every instance that answers DNS: a duplicate NOTIFY only makes them ask the SOA again.
  const notifier = dns && config.DNS_ALSO_NOTIFY.length > 0 ? await notifyOnChange(zones.zones, zones.catalog, config.DNS_ALSO_NOTIFY, parseTsigKeys(config.DNS_TSIG_KEYS)[0]) : null;
  if (notifier) closers.push('the NOTIFY sender', () => notifier.stop());
  const { port } = server.address() as AddressInfo;
  const origin = `http://${config.HOST}:${port}`;
  return { origin, baseUrl: `${origin}/v-next`, services, chain, dns, forwarder, transfers: workers.transfers, notifier, close: () => closers.close() };
}

async function openMigratedDatabase(config: Config, closers: Closers): Promise<Database> {
  const db = await openDatabase({ dataDir: resolve(config.DATA_DIR, 'db'), url: config.DATABASE_URL });
  closers.push('the database', () => db.close());
  await migrate(db);
  return db;
}

/** The service's clock, and `follow`: what runs when the test clock moves (in the order given). */
type FollowedClock = ServiceClock & { follow(onMoved: () => Promise<void> | void): void };

/** The test clock (DEV_CONTROLS=true) moves every reader of time together, and the local chain's block time with it. */
async function startClock(config: Config, db: Database, closers: Closers): Promise<FollowedClock> {
  const followers: Array<() => Promise<void> | void> = [];
  const onAdvance = async () => {
    for (const follower of followers) await follower();
  };
  const clock = config.DEV_CONTROLS ? await testClock(db, { onAdvance }) : realClock();
  closers.push('the clock', () => clock.stop());
  return Object.assign(clock, { follow: (onMoved: () => Promise<void> | void) => void followers.push(onMoved) });
}

/** CHAIN=anvil: the chain (see startChain), its block time on the service's clock. */
async function startChainOnClock(config: Config, db: Database, clock: FollowedClock, closers: Closers): Promise<LocalChain | null> {
  const chain = await startChain(config, db);
  if (!chain) return null;
  closers.push('the local chain', () => chain.stop());
  if (clock.offsetMs() > 0) await syncChainTime(chain.clients, clock.now());
  clock.follow(async () => void (await syncChainTime(chain.clients, clock.now())));
  return chain;
}

/**
 * Contract accounts made on the chain from now on are journaled as they are mined (on the anvil this service owns,
 * whose unsaved state a crash loses): the start after a crash makes them again.
 */
async function startChainJournal(chain: LocalChain, db: Database, closers: Closers): Promise<void> {
  const from = (await chain.clients.public.getBlockNumber({ cacheTime: 0 })) + 1n;
  const journal = startAccountJournal(chain.clients, db, { from, onError: (error) => console.warn(`Local chain: account journal: ${error.message}`) });
  closers.push('the account journal', () => journal.stop());
}

/** What the services are built from: the parts started before them. */
interface ServiceParts {
  config: Config;
  db: Database;
  chain: LocalChain | null;
  x402: X402Rail | null;
  forwarder: Forwarder | null;
  now: () => Date;
  notifyOrders: () => void;
  /** The DNS server's port once it listens (DNS_PORT=0 picks a free one), which is after the services are built. */
  dnsPort: () => number | null;
}

/** What every handler and worker is given, built once. */
function buildServices({ config, db, chain, x402, forwarder, now, notifyOrders, dnsPort }: ServiceParts, closers: Closers): Services {
  const registry = databaseOwnership(db);
  const services: Services = {
    config,
    db,
    // On a chain the ERC-721 decides; the database registry it replaces keeps a mirror row per domain for parking
    // and availability.
    ownership: chain ? chain.ownership({ mirror: registry }) : registry,
    credit: chain ? chain.credit : databaseCredit(db, now),
    contractSignatures: chain ? chain.signatures : null,
    x402,
    headers: serviceHeaders(config.HEADER_PREFIX),
    now,
    notifyOrders,
    zoneCache: new ZoneCache(),
    envelopeNonces: { prunedAtMs: 0 },
    forwarderOrigin: forwarder?.origin ?? null,
    dnsPort,
    queryCounter: config.ANALYTICS_ENABLED
      ? queryCounter(db, { flushMs: config.ANALYTICS_FLUSH_MS, keepDays: config.ANALYTICS_DAYS, onError: (error) => console.warn(`Query analytics: ${error.message}`) })
      : noCounting,
  };
  closers.push('query analytics', () => services.queryCounter.stop());
  return services;
}

interface Zones {
  zones: ZoneSource;
  catalog: CatalogSource;
  /** Encoded answers shared by DoH and the DNS server's UDP (server/dns-server/packet-cache.ts). */
  answers: AnswerCache;
}

/** The zones as the name server, DoH and the ALIAS refresher read them, kept in memory while subscribed to changes. */
async function startZones(config: Config, db: Database, closers: Closers): Promise<Zones> {
  const settings = configuredSettings(config);
  const catalog = catalogSource(db, config.DNS_CATALOG_ZONE, settings);
  const zones = withCatalog(zoneSource(db, settings, snapshotCacheBytes(config)), catalog);
  closers.push('the zone subscription', () => zones.close());
  await zones.subscribe();
  return { zones, catalog, answers: answerCache(zones, [catalog.zone], packetCacheBytes(config.dnsCacheMb)) };
}

/** How often PGlite's tables are looked at for vacuuming: a grown table's dead rows cost every read that meets them. */
const UPKEEP_MS = 60_000;

/**
 * The background workers, each on the one poll loop (server/support/poll-loop.ts); `orderWaker` is pointed at the
 * order worker, and `followClock` wakes those that follow the test clock.
 */
async function startWorkers(services: Services, zones: ZoneSource, chain: LocalChain | null, orderWaker: { wake(): void }, closers: Closers) {
  const warn = (what: string) => (error: Error) => console.warn(`${what}: ${error.message}`);
  // Signed zones whose signatures are due are renewed before anything is answered, then every quarter of an hour.
  const renewal = startSignatureRenewal(services, { now: services.now, onError: warn('DNSSEC renewal') });
  closers.push('DNSSEC signature renewal', () => renewal.stop());
  await renewal.ready;
  // DNSSEC algorithm rollovers take each step once its phase has lasted what RFC 6781 asks (server/zones/dnssec-rollover.ts).
  const rollovers = startRolloverWorker(services, { onError: warn('DNSSEC rollover') });
  closers.push('the DNSSEC rollover worker', () => rollovers.stop());
  // ALIAS records: their targets' addresses followed and written as changes of their zones (server/alias/).
  const aliases = startAliasRefresher(services, zones, { onError: warn('ALIAS') });
  closers.push('the ALIAS refresher', () => aliases.stop());
  // On a chain, transfers of a domain's token made with any tool are written to the zone's history (and switch
  // auto-renew off) within CHAIN_FOLLOW_MS of their block.
  const transfers = chain
    ? startTransferFollower(services, { clients: chain.clients, registry: chain.deployment.registry, chainId: chain.deployment.chainId }, {
        pollMs: services.config.CHAIN_FOLLOW_MS,
        onError: warn('Chain transfers'),
      })
    : null;
  if (transfers) closers.push('the transfer follower', () => transfers.stop());
  const orders = startOrderWorker(services);
  orderWaker.wake = orders.wake;
  closers.push('the order worker', () => orders.stop());
  // Renews auto-renewing domains from their owners' credit AUTO_RENEW_DAYS before they expire (server/renewal/).
  const autoRenew = startAutoRenewWorker(services);
  closers.push('the auto-renew worker', () => autoRenew.stop());
  const expiry = startExpiryWorker(services, { onError: warn('Expiry') });
  closers.push('the expiry worker', () => expiry.stop());
  // PGlite's tables vacuumed where autovacuum would (server/db/database.ts vacuumIfGrown); a PostgreSQL server has its own.
  const vacuum = services.db.vacuumIfGrown;
  if (vacuum) {
    const upkeep = startPollLoop(async () => void (await vacuum()), { pollMs: UPKEEP_MS, firstMs: UPKEEP_MS, onError: warn('Database upkeep') });
    closers.push('the database upkeep', () => upkeep.stop());
  }
  const followClock = async () => {
    orders.wake();
    await expiry.wake();
    await rollovers.wake();
    autoRenew.wake();
  };
  return { transfers, followClock };
}

async function serveHttp(app: Hono, config: Config, closers: Closers): Promise<ServerType> {
  const server = await new Promise<ServerType>((ready, fail) => {
    const fetch = async (request: Request, env?: unknown) => closeAfterRefusedBody(await app.fetch(request, env));
    const s = serve({ fetch, port: config.PORT, hostname: config.HOST }, () => ready(s));
    answerClientErrors(s as Server);
    s.once('error', fail);
  });
  closers.push('the HTTP server', () => new Promise<void>((done) => server.close(() => done())));
  return server;
}

/** The DNS server (DNS_PORT set), UDP and TCP, answering from the zones and their answer cache. */
async function startDns(config: Config, services: Services, { zones, answers, catalog }: Zones, closers: Closers): Promise<DnsServer | null> {
  if (config.DNS_PORT === undefined) return null;
  const { db } = services;
  const serving = dnsServingOptions(config, db);
  const dns = await startDnsServer({
    zones,
    db,
    host: config.HOST,
    port: config.DNS_PORT,
    nameservers: config.DNS_NAMESERVERS,
    forwardAddresses: config.FORWARD_ADDRESSES,
    axfrAllow: config.DNS_AXFR_ALLOW,
    ...serving,
    secondaries: { ...serving.secondaries, catalog },
    counter: services.queryCounter,
    cache: answers,
    // The standard doors: DNS UPDATE and keyed transfers with scoped keys' TSIG forms (server/doors/update/).
    keyed: updateDoor(services),
  });
  closers.push('the DNS server', () => dns.close());
  return dns;
}

/**
 * Finishes the x402 purchases a crash left between states (their payment settled or not, their order not written)
 * before anything is served or processed, so that no purchase stays between states after a start.
 */
async function recoverX402(db: Database, rail: X402Rail, chain: LocalChain, now: () => Date): Promise<void> {
  const { ordered, refunded, failed, left } = await recoverPurchases({ db, rail, now, ownsNode: chain.ownsNode });
  if (ordered + refunded + failed + left === 0) return;
  console.warn(
    `x402: finished ${ordered + refunded + failed} purchase(s) a stop left between states: ${ordered} settled and now ordered, ` +
      `${refunded} refunded, ${failed} never settled and failed with nothing taken` +
      `${left ? `; ${left} still valid and unsettled left to the instance settling them (shared node)` : ''}`,
  );
}

/**
 * CHAIN=anvil: starts (or connects to) the local chain and brings it back to the database's journal, so that
 * ownership, credit, contract-account signatures and x402 can be served from it.
 */
async function startChain(config: Config, db: Database): Promise<LocalChain | null> {
  if (config.CHAIN !== 'anvil') return null;
  // Instances sharing a node and a database start on it one at a time: one deploys, one restores what was lost.
  return db.exclusive('namefi:chain-start', () => startReconciledChain(config, db));
}

async function startReconciledChain(config: Config, db: Database): Promise<LocalChain> {
  const chain = await startLocalChain({
    dataDir: config.DATA_DIR,
    rpcUrl: config.CHAIN_RPC_URL,
    port: config.CHAIN_PORT,
    stateIntervalS: config.CHAIN_STATE_INTERVAL_S,
    db,
  });
  try {
    const { restored, credit, settlements, accounts } = await reconcileChain(chain, db);
    // A chain that lost state the database kept (a crash after the last state save, a damaged or deleted state
    // file), or that took writes whose database transactions never committed (a crash in between).
    if (restored.length > 0) {
      // A new chain under a registrar's database loses every domain: the first names say which, not a million of them.
      const named = restored.length > 20 ? `${restored.slice(0, 20).join(', ')} and ${restored.length - 20} more` : restored.join(', ');
      console.warn(`Local chain: minted again ${restored.length} domain(s) it had lost: ${named}`);
    }
    if (credit.restored + credit.undone + credit.aheadLeft > 0 || credit.shortfallUnits > 0n) {
      console.warn(
        `Local chain: credit reconciled with the database: ${credit.restored} grant(s)/charge(s) restored, ${credit.undone} never committed undone` +
          `${credit.aheadLeft ? `, ${credit.aheadLeft} ahead of the database left (shared node)` : ''}` +
          `${credit.shortfallUnits > 0n ? `, ${credit.shortfallUnits} units could not be taken back (moved on the chain)` : ''}`,
      );
    }
    if (settlements.resettled + settlements.refunded > 0) {
      console.warn(`Local chain: x402 payments made again from the journal: ${settlements.resettled} settlement(s), ${settlements.refunded} refund(s)`);
    }
    if (accounts.deployed + accounts.delegated + accounts.unrestored.length > 0) {
      console.warn(
        `Local chain: contract accounts made again from the journal: ${accounts.deployed} smart account(s), ${accounts.delegated} EIP-7702 delegation(s)` +
          `${accounts.unrestored.length ? `; could not make again: ${accounts.unrestored.join(', ')}` : ''}`,
      );
    }
  } catch (error) {
    await chain.stop();
    throw error;
  }
  return chain;
}
