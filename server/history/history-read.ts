import type { Queryable } from '../db/database.ts';
import { invalidInput } from '../domain-errors.ts';

interface HistoryRow {
  id: string;
  zone_name: string;
  serial: string | number;
  at: Date | string;
  operation: string;
  entry: string;
}

const EXPORT_BATCH = 500;

/** One entry's JSON text: the row's columns, then the stored rest, spliced without parsing it again. */
function entryJson(row: HistoryRow): string {
  const at = row.at instanceof Date ? row.at.toISOString() : new Date(row.at).toISOString();
  const head = `{"id":${JSON.stringify(String(row.id))},"zoneName":${JSON.stringify(row.zone_name)},"serial":${Number(row.serial)},"at":"${at}","operation":${JSON.stringify(row.operation)}`;
  return row.entry === '{}' ? `${head}}` : `${head},${row.entry.slice(1)}`;
}

/** The cursor is opaque to clients: the id of the last entry shown, encoded. */
export const encodeCursor = (id: string) => `h${BigInt(id).toString(36)}`;
function decodeCursor(cursor: string): string {
  if (!/^h[0-9a-z]{1,13}$/.test(cursor)) throw invalidInput({ before: ['Not a cursor of this history: pass the `next` of the previous page'] });
  let id = 0n;
  for (const ch of cursor.slice(1)) id = id * 36n + BigInt(parseInt(ch, 36));
  if (id > 9223372036854775807n) throw invalidInput({ before: ['Not a cursor of this history: pass the `next` of the previous page'] });
  return id.toString();
}

/** A page of a zone's history, newest first, as JSON text: one range scan of the (zone_name, id) index per page. */
export async function historyPageJson(q: Queryable, zoneName: string, options: { before?: string; limit: number }): Promise<string> {
  const before = options.before === undefined ? null : decodeCursor(options.before);
  const rows = await q.query<HistoryRow>(
    `SELECT id, zone_name, serial, at, operation, entry FROM zone_history
     WHERE zone_name = $1 AND ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $3`,
    [zoneName, before, options.limit + 1],
  );
  const page = rows.slice(0, options.limit);
  const next = rows.length > options.limit ? JSON.stringify(encodeCursor(String(page[page.length - 1].id))) : 'null';
  return `{"entries":[${page.map(entryJson).join(',')}],"next":${next}}`;
}

/** Every entry of a zone, oldest first, one JSON object per line, read a batch at a time as the client takes them. */
export function historyNdjson(q: Queryable, zoneName: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = '0';
  return new ReadableStream({
    async pull(controller) {
      const rows = await q.query<HistoryRow>(
        'SELECT id, zone_name, serial, at, operation, entry FROM zone_history WHERE zone_name = $1 AND id > $2::bigint ORDER BY id LIMIT $3',
        [zoneName, after, EXPORT_BATCH],
      );
      if (rows.length > 0) {
        after = String(rows[rows.length - 1].id);
        controller.enqueue(encoder.encode(rows.map((row) => `${entryJson(row)}\n`).join('')));
      }
      if (rows.length < EXPORT_BATCH) controller.close();
    },
  });
}
