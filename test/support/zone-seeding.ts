import { resolve } from 'node:path';
import type { ZoneRecordInput } from '#core/wire/dns.ts';
import type { Config } from '../../server/config.ts';
import { openDatabase, type Database, type Queryable } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { orderAuthor } from '../../server/history/record-change.ts';
import { applyInitialRecords } from '../../server/orders/initial-records.ts';
import { databaseOwnership } from '../../server/ownership/database-ownership.ts';
import { parkingCommand } from '../../server/zones/parking.ts';
import { changeZoneWithin, type PipelineServices } from '../../server/zones/pipeline.ts';

/**
 * Many small zones registered as a registrar registers them, through the one zone-change pipeline: each zone is
 * minted, unparked and given its initial records exactly as the order worker does for a registration with records
 * (server/orders/processing.ts: mint, the parking change, applyInitialRecords), so each gets its serial, its history
 * entries and its announcement. The fastest path the pipeline allows: in-process, many zones in one transaction
 * (changeZoneWithin, as one order registers several names), and on PostgreSQL a few transactions at once.
 */

/** The i-th seeded zone: `z<i>.bench-zones.com`. */
export const seededZone = (i: number) => `z${i}.bench-zones.com`;

/** A registrar's small zone: five records (an address at the apex, www, mail and its MX, an SPF TXT). */
export function smallZoneRecords(i: number): ZoneRecordInput[] {
  const address = `192.0.2.${i % 250}`;
  return [
    { name: '@', type: 'A', rdata: address, ttl: 3600 },
    { name: 'www', type: 'CNAME', rdata: `${seededZone(i)}.`, ttl: 3600 },
    { name: 'mail', type: 'A', rdata: `198.51.100.${i % 250}`, ttl: 3600 },
    { name: '@', type: 'MX', rdata: `10 mail.${seededZone(i)}.`, ttl: 3600 },
    { name: '@', type: 'TXT', rdata: '"v=spf1 mx -all"', ttl: 3600 },
  ];
}

const OWNER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** One zone registered with its records, in the caller's transaction. */
async function registerSmallZone(services: Omit<PipelineServices, 'db'>, tx: Queryable, i: number, now: Date): Promise<void> {
  const name = seededZone(i);
  const author = orderAuthor('registerWithRecords', OWNER);
  await services.ownership.mint({ name, to: OWNER, chainId: 31337, years: 1, now }, tx);
  // Unparked first, as a registration whose records hold an apex address (core/dns/parking.ts startsParked).
  await changeZoneWithin(services, tx, { zoneName: name, by: { author }, command: parkingCommand({ parked: false, overrideExistingRecords: false }), now });
  const applied = await applyInitialRecords(services, tx, name, smallZoneRecords(i), now, author);
  if (!applied.ok) throw new Error(`${name}: ${applied.message}`);
}

export interface SeedOptions {
  /** Which zones: seededZone(i) for each i. */
  zones: readonly number[];
  /** Zones per transaction. */
  batch?: number;
  /** Transactions at once (PostgreSQL; PGlite runs one at a time whatever this says). */
  parallel?: number;
  onProgress?: (done: number) => void;
}

/** Seeds zones into an open, migrated database; answers the seconds it took. */
export async function seedZones(db: Database, config: Config, options: SeedOptions): Promise<number> {
  const { zones, batch = 250, parallel = 1 } = options;
  const services = { ownership: databaseOwnership(db), config, now: () => new Date() };
  const started = performance.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < zones.length) {
      const some = zones.slice(next, next + batch);
      next += some.length;
      const now = new Date();
      await db.transaction(async (tx) => {
        for (const i of some) await registerSmallZone(services, tx, i, now);
      });
      done += some.length;
      options.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return (performance.now() - started) / 1000;
}

/** Of zones 0 … count-1, the ones the database does not hold yet (a seeding cut short resumes where it stopped). */
async function missingZones(db: Database, count: number): Promise<number[]> {
  const rows = await db.query<{ name: string }>(`SELECT name FROM domains WHERE name LIKE 'z%.bench-zones.com'`);
  const held = new Set(rows.map((r) => r.name));
  return Array.from({ length: count }, (_, i) => i).filter((i) => !held.has(seededZone(i)));
}

/**
 * Opens the service's database as it would (DATA_DIR/db, or DATABASE_URL), migrated, seeds the zones of 0 … count-1
 * it lacks, vacuums what grew (PGlite) and closes it. Answers how many it seeded and in how many seconds.
 */
export async function seedServiceDatabase(config: Config, count: number, options: Omit<SeedOptions, 'zones'> = {}): Promise<{ seeded: number; seconds: number }> {
  const db = await openDatabase({ dataDir: resolve(config.DATA_DIR, 'db'), url: config.DATABASE_URL });
  try {
    await migrate(db);
    const zones = await missingZones(db, count);
    const seconds = await seedZones(db, config, { ...options, zones });
    // What the service's upkeep loop would have done meanwhile (server/service.ts): the rows' old versions vacuumed.
    await db.vacuumIfGrown?.();
    return { seeded: zones.length, seconds };
  } finally {
    await db.close();
  }
}
