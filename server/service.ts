import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { answerClientErrors, closeAfterRefusedBody } from './http/connection.ts';
import { resolve } from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createApp } from './app.ts';
import { handlers } from './routes/index.ts';
import { mountDocs } from './routes/docs.ts';
import { databaseOwnership } from './ownership/database-ownership.ts';
import { startOrderWorker } from './orders/worker.ts';
import { databaseCredit } from './balance/database-credit.ts';
import { startLocalChain, type LocalChain } from './chain/local-chain.ts';
import { reconcileChain } from './chain/reconcile-chain.ts';
import { createX402Rail } from './x402/rail.ts';
import { serviceHeaders } from '../src/core/headers.ts';
import { startDnsServer, nameServerSettings, type DnsServer } from './dns-server/server.ts';
import { catalogSource, withCatalog } from './dns-server/catalog.ts';
import { notifyOnChange } from './dns-server/secondaries.ts';
import { parseTsigKeys } from './dns-server/tsig.ts';
import { dnsServingOptions } from './dns-server/serving-options.ts';
import { zoneSource } from './dns-server/zone-snapshot.ts';
import { ZoneCache } from './dns/zone-read.ts';
import { mountDoh } from './dns-server/doh.ts';
import type { Services } from './http/context.ts';

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
  const chain = await startChain(config, db).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  const x402 = chain?.deployment.usdToken
    ? await createX402Rail(chain.clients, chain.deployment.usdToken).catch(async (error: unknown) => {
        await db.close();
        await chain.stop();
        throw error;
      })
    : null;
  let wake = () => {};
  const now = () => new Date();
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
  };
  const settings = nameServerSettings(config.DNS_NAMESERVERS);
  const catalog = catalogSource(db, config.DNS_CATALOG_ZONE, settings);
  const zones = withCatalog(zoneSource(db, settings), catalog);
  await zones.subscribe();
  const app = createApp(services, handlers, (a) => {
    mountDocs(a, services.headers);
    mountDoh(a, zones);
  });
  const worker = startOrderWorker(services);
  wake = worker.wake;
  const server = await new Promise<ServerType>((ready, fail) => {
    const fetch = async (request: Request, env?: unknown) => closeAfterRefusedBody(await app.fetch(request, env));
    const s = serve({ fetch, port: config.PORT, hostname: config.HOST }, () => ready(s));
    answerClientErrors(s as Server);
    s.once('error', fail);
  }).catch(async (error: unknown) => {
    await worker.stop();
    await db.close();
    await chain?.stop();
    throw error;
  });
  const dns =
    config.DNS_PORT === undefined
      ? null
      : await startDnsServer({ zones, db, host: config.HOST, port: config.DNS_PORT, nameservers: config.DNS_NAMESERVERS, axfrAllow: config.DNS_AXFR_ALLOW, ...dnsServingOptions(config, db) }).catch(async (error: unknown) => {
          await worker.stop();
          await new Promise<void>((done) => server.close(() => done()));
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
    notifier,
    async close() {
      await notifier?.stop();
      await dns?.close();
      await zones.close();
      await worker.stop();
      await new Promise<void>((done) => server.close(() => done()));
      await db.close();
      await chain?.stop();
    },
  };
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
    const { restored, credit } = await reconcileChain(chain, db);
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
  } catch (error) {
    await chain.stop();
    throw error;
  }
  return chain;
}
