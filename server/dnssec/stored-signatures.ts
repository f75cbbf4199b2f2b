import type { Queryable } from '../db/database.ts';
import { breathe } from './sign-in-worker.ts';
import type { FreshSignature, SignedZone } from './sign-zone.ts';

/**
 * The signatures kept with a zone (table dnssec_signatures, migration 075): read before a zone is signed whole, so a
 * restart or a second instance signs only what no one signed before; written after every signing, first writer
 * wins, and a signature another instance stored first replaces ours, so every instance serves the same bytes.
 * Reads and writes go a batch at a time with a turn of the event loop between (PGlite runs on it).
 */
const BATCH = 1000;
/**
 * Writes are smaller: PGlite spends about 70 ms of the event loop on 1,000 rows, and a request that needs the
 * database waits for the statement in progress, so 100 rows (a turn near 7 ms) keep other zones' answers well
 * under 50 ms while a big zone's signatures are written (250 put HTTP's p99 at 54 ms at 100,000 records).
 */
const WRITE_BATCH = 100;

/** The zone's stored signatures of this validity (the RRSIGs' expiration, from the signing epoch), page by page. */
export async function* storedSignatures(db: Queryable, zone: string, expiration: number): AsyncGenerator<Array<{ digest: string; rrsig: Uint8Array }>> {
  let after = '';
  for (;;) {
    const rows = await db.query<{ d: string; r: string }>(
      `SELECT encode(digest, 'hex') AS d, encode(rrsig, 'base64') AS r FROM dnssec_signatures
        WHERE zone_name = $1 AND digest > decode($3, 'hex') AND expiration = $2 ORDER BY digest LIMIT $4`,
      [zone, expiration, after, BATCH],
    );
    if (rows.length > 0) yield rows.map((row) => ({ digest: Buffer.from(row.d, 'hex').toString('base64'), rrsig: Buffer.from(row.r, 'base64') }));
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].d;
    await breathe();
  }
}

/**
 * Stores the signatures this signing made; where another instance stored one for the same set, key and validity
 * first, the signed zone takes that one instead. Answers how many were taken from the database.
 */
export async function keepSignatures(db: Queryable, zone: string, signed: SignedZone, fresh: FreshSignature[]): Promise<number> {
  let swapped = 0;
  for (let i = 0; i < fresh.length; i += WRITE_BATCH) {
    const batch = fresh.slice(i, i + WRITE_BATCH);
    const digests = batch.map((f) => f.digest.toString('base64'));
    const inserted = await db.query<{ d: string }>(
      `INSERT INTO dnssec_signatures (zone_name, owner, type, digest, expiration, rrsig)
       SELECT $1, o, t, decode(d, 'base64'), $2, decode(r, 'base64') FROM unnest($3::text[], $4::int[], $5::text[], $6::text[]) AS u(o, t, d, r)
       ON CONFLICT DO NOTHING RETURNING encode(digest, 'base64') AS d`,
      [zone, signed.expiration, batch.map((f) => f.rel), batch.map((f) => f.type), digests, batch.map((f) => Buffer.from(f.rrsig).toString('base64'))],
    );
    if (inserted.length < batch.length) {
      const mine = new Set(inserted.map((row) => row.d.replace(/\n/g, '')));
      const lost = batch.filter((_, j) => !mine.has(digests[j]));
      const stored = await db.query<{ o: string; t: number; r: string }>(
        `SELECT owner AS o, type AS t, encode(rrsig, 'base64') AS r FROM dnssec_signatures
          WHERE zone_name = $1 AND digest = ANY (SELECT decode(d, 'base64') FROM unnest($2::text[]) AS u(d))`,
        [zone, lost.map((f) => f.digest.toString('base64'))],
      );
      for (const row of stored) {
        signed.rrsigs.get(row.o)?.set(Number(row.t), Buffer.from(row.r, 'base64'));
        swapped += 1;
      }
    }
    await breathe();
  }
  return swapped;
}

/** Once a zone is signed from a new epoch, the signatures of earlier ones go (a batch at a time). */
export async function dropOtherEpochs(db: Queryable, zone: string, expiration: number): Promise<void> {
  for (;;) {
    const rows = await db.query(
      `DELETE FROM dnssec_signatures WHERE zone_name = $1 AND digest IN
         (SELECT digest FROM dnssec_signatures WHERE zone_name = $1 AND expiration <> $2 LIMIT $3) RETURNING 1`,
      [zone, expiration, BATCH],
    );
    if (rows.length < BATCH) return;
    await breathe();
  }
}
