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
import { answerCache, startDnsServer, nameServerSettings, type DnsServer } from './dns-server/server.ts';
import { noCounting, queryCounter } from './dns-server/query-counts.ts';
import { catalogSource, withCatalog } from './dns-server/catalog.ts';
import { notifyOnChange } from './dns-server/secondaries.ts';
import { parseTsigKeys } from './dns-server/tsig.ts';
import { dnsServingOptions, soaTimers } from './dns-server/serving-options.ts';
import { zoneSource } from './dns-server/zone-source.ts';
import { ZoneCache } from './dns/zone-read.ts';
import { managedSettings } from './dns/managed-settings.ts';
import { mountDoh } from './http/doh.ts';
import { startSignatureRenewal } from './zones/signature-renewal.ts';
import { startAliasRefresher } from './alias/refresher.ts';
import { startTransferFollower, type TransferFollower } from './zones/transfers.ts';
import { startExpiryWorker } from './zones/expiry.ts';
import { startForwarder, type Forwarder } from './forwarder/forwarder.ts';
import type { Services } from './services.ts';
import { realClock, testClock } from './clock/service-clock.ts';
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
 * when there is one), serves HTTP and starts the order worker.
 */
export async function startService(config: Config): Promise<RunningService> {
  const db = await openDatabase({ dataDir: resolve(config.DATA_DIR, 'db'), url: config.DATABASE_URL });
  await migrate(db);
  // The test clock (DEV_CONTROLS=true) moves every reader of time together, and the local chain's block time with it.
  let onClockMoved: (seconds: number) => Promise<void> = async () => {};
  const clock = config.DEV_CONTROLS ? await testClock(db, { onAdvance: (seconds) => onClockMoved(seconds) }) : realClock();
  const chain = await startChain(config, db).catch(async (error: unknown) => {
    await clock.stop();
    await db.close();
    throw error;
  });
  if (chain && clock.offsetMs() > 0) await syncChainTime(chain.clients, clock.now());
  const x402 = chain?.deployment.usdToken
    ? await createX402Rail(chain.clients, chain.deployment.usdToken).catch(async (error: unknown) => {
        await db.close();
        await chain.stop();
        throw error;
      })
    : null;
  const forwarder =
    config.FORWARD_PORT === undefined
      ? null
      : await startForwarder({ db, host: config.HOST, port: config.FORWARD_PORT }).catch(async (error: unknown) => {
          await db.close();
          await chain?.stop();
          throw error;
        });
  const now = () => clock.now();
  if (chain && x402) {
    await recoverX402(db, x402, chain, now).catch(async (error: unknown) => {
      await forwarder?.close();
      await db.close();
      await chain.stop();
      throw error;
    });
  }
  // Contract accounts made on the chain from now on are journaled as they are mined (on the anvil this service owns,
  // whose unsaved state a crash loses): the start after a crash makes them again.
  const accountJournal = chain?.ownsNode
    ? startAccountJournal(chain.clients, db, {
        from: (await chain.clients.public.getBlockNumber({ cacheTime: 0 })) + 1n,
        onError: (error) => console.warn(`Local chain: account journal: ${error.message}`),
      })
    : null;
  let wake = () => {};
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
    notifyOrders: () => wake(),
    zoneCache: new ZoneCache(),
    envelopeNonces: { prunedAtMs: 0 },
    forwarderOrigin: forwarder?.origin ?? null,
    queryCounter: config.ANALYTICS_ENABLED
      ? queryCounter(db, { flushMs: config.ANALYTICS_FLUSH_MS, keepDays: config.ANALYTICS_DAYS, onError: (error) => console.warn(`Query analytics: ${error.message}`) })
      : noCounting,
  };
  const settings = nameServerSettings(config.DNS_NAMESERVERS, managedSettings(config), soaTimers(config));
  const catalog = catalogSource(db, config.DNS_CATALOG_ZONE, settings);
  const zones = withCatalog(zoneSource(db, settings), catalog);
  await zones.subscribe();
  // Encoded answers shared by DoH and the DNS server's UDP (server/dns-server/packet-cache.ts).
  const answers = answerCache(zones, [catalog.zone]);
  // Signed zones whose signatures are due are renewed before anything is answered, then every quarter of an hour.
  const renewal = startSignatureRenewal(services, { now, onError: (error) => console.warn(`DNSSEC renewal: ${error.message}`) });
  await renewal.ready;
  // ALIAS records: their targets' addresses followed and written as changes of their zones (server/alias/).
  const aliases = startAliasRefresher(services, zones, { onError: (error) => console.warn(`ALIAS: ${error.message}`) });
  // On a chain, transfers of a domain's token made with any tool are written to the zone's history (and switch
  // auto-renew off) within CHAIN_FOLLOW_MS of their block.
  const transfers = chain
    ? startTransferFollower(services, { clients: chain.clients, registry: chain.deployment.registry, chainId: chain.deployment.chainId }, {
        pollMs: config.CHAIN_FOLLOW_MS,
        onError: (error) => console.warn(`Chain transfers: ${error.message}`),
      })
    : null;
  const app = createApp(services, handlers, (a) => {
    mountDocs(a, services.headers);
    if (config.DEV_CONTROLS) mountDevClock(a, clock);
    mountDoh(a, zones, services.queryCounter, answers);
    mountMcp(a, config, databaseStores(services.db), () => services.now());
  });
  const worker = startOrderWorker(services);
  wake = worker.wake;
  // Renews auto-renewing domains from their owners' credit AUTO_RENEW_DAYS before they expire (server/renewal/).
  const autoRenew = startAutoRenewWorker(services);
  const expiry = startExpiryWorker(services, { onError: (error) => console.warn(`Expiry: ${error.message}`) });
  onClockMoved = async () => {
    if (chain) await syncChainTime(chain.clients, clock.now());
    worker.wake();
    await expiry.wake();
    autoRenew.wake();
  };
  const server = await new Promise<ServerType>((ready, fail) => {
    const fetch = async (request: Request, env?: unknown) => closeAfterRefusedBody(await app.fetch(request, env));
    const s = serve({ fetch, port: config.PORT, hostname: config.HOST }, () => ready(s));
    answerClientErrors(s as Server);
    s.once('error', fail);
  }).catch(async (error: unknown) => {
    await renewal.stop();
    await aliases.stop();
    await transfers?.stop();
    await autoRenew.stop();
    await worker.stop();
    await expiry.stop();
    await accountJournal?.stop();
    await forwarder?.close();
    await services.queryCounter.stop();
    await db.close();
    await chain?.stop();
    throw error;
  });
  const dns =
    config.DNS_PORT === undefined
      ? null
      : await startDnsServer({ zones, db, host: config.HOST, port: config.DNS_PORT, nameservers: config.DNS_NAMESERVERS, forwardAddresses: config.FORWARD_ADDRESSES, axfrAllow: config.DNS_AXFR_ALLOW, ...dnsServingOptions(config, db), counter: services.queryCounter, cache: answers }).catch(async (error: unknown) => {
          await renewal.stop();
          await aliases.stop();
          await transfers?.stop();
          await autoRenew.stop();
          await worker.stop();
          await expiry.stop();
          await accountJournal?.stop();
          await new Promise<void>((done) => server.close(() => done()));
          await forwarder?.close();
          await services.queryCounter.stop();
          await db.close();
          await chain?.stop();
          throw error;
        });
  // NOTIFY the secondaries from every instance that answers DNS: a duplicate NOTIFY only makes them ask the SOA again.
  const notifier = dns && config.DNS_ALSO_NOTIFY.length > 0 ? await notifyOnChange(zones, catalog, config.DNS_ALSO_NOTIFY, parseTsigKeys(config.DNS_TSIG_KEYS)[0]) : null;
  const { port } = server.address() as AddressInfo;
  const origin = `http://${config.HOST}:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v-next`,
    services,
    chain,
    dns,
    forwarder,
    transfers,
    notifier,
    async close() {
      await notifier?.stop();
      await dns?.close();
      await services.queryCounter.stop();
      await forwarder?.close();
      await renewal.stop();
      await aliases.stop();
      await transfers?.stop();
      await zones.close();
      await autoRenew.stop();
      await worker.stop();
      await expiry.stop();
      await accountJournal?.stop();
      await new Promise<void>((done) => server.close(() => done()));
      await clock.stop();
      await db.close();
      await chain?.stop();
    },
  };
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
    if (restored.length > 0) console.warn(`Local chain: minted again ${restored.length} domain(s) it had lost: ${restored.join(', ')}`);
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
