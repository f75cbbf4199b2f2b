import type { ZoneChangeFacts } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';

/** One change that moved a zone's serial, as its history entry records it. */
export interface SerialChange {
  serial: number;
  at: Date | string;
  facts: ZoneChangeFacts;
}

/**
 * The changes that took a zone from serial `from` to serial `to`, one per serial in order, read from its history (every
 * accepted change writes one entry in its own transaction: server/zones/pipeline.ts). Null when the history does not
 * hold every one of them (a gap). An entry that moved no serial (a transfer, a grant) carries the serial of the change
 * before it and changed no answer: the first entry of each serial is the change that produced it, the rest are left out.
 * Read by IXFR (the differences a secondary asks for) and by the name server's reload of a big zone (the names to read again).
 */
export async function changesBetween(db: Queryable, zone: string, from: number, to: number): Promise<SerialChange[] | null> {
  if (from >= to) return [];
  const all = await db.query<{ serial: string | number; at: Date | string; entry: string }>(
    'SELECT serial, at, entry FROM zone_history WHERE zone_name = $1 AND serial > $2 AND serial <= $3 ORDER BY serial, id',
    [zone, from, to],
  );
  const rows = all.filter((row, i) => i === 0 || Number(row.serial) !== Number(all[i - 1].serial));
  if (rows.length !== to - from || rows.some((row, i) => Number(row.serial) !== from + 1 + i)) return null;
  return rows.map((row) => ({ serial: Number(row.serial), at: row.at, facts: JSON.parse(row.entry) as ZoneChangeFacts }));
}
