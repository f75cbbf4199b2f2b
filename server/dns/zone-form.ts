import type { Queryable } from '../db/database.ts';

/** From this many stored records on, a zone is read page by page and has no form (server/dns-server/snapshot-builder.ts). */
export const FORM_RECORDS_BELOW = 5000;

/** A stored record or an ALIAS target's address, as the zone's form holds it: name, type, TTL, data. */
type FormRecord = [name: string, type: string, ttl: number, rdata: string];

/** What a form holds: the zone's stored records in written order, and its ALIAS targets' addresses. */
export interface ZoneForm<R = { name: string; type: string; ttl: number; rdata: string }> {
  records: R[];
  flattened: R[];
}

/** The zone's form as written, with its state: what the pipeline compiles for the name server (compiled-form.ts). */
export interface WrittenForm {
  form: string;
  serial: number | string;
  version: string;
  parked: boolean;
  forward_enabled: boolean;
  expired: boolean;
}

/**
 * Writes the zone's form from its records as they are in this transaction (migration 086), of the zone's version
 * after the change: the pipeline's last step (server/zones/pipeline.ts), and the name server's after it built a zone
 * that had none. A signed zone has none (its signatures are built and stored apart), nor a big one (read in pages).
 * `compile` (the pipeline's) then keeps the form compiled for the name server beside it (migration 090); without it
 * the compiled form is cleared, never left from another version.
 */
export async function writeZoneForm(q: Queryable, zone: string, compile?: (q: Queryable, zone: string, written: WrittenForm) => Promise<void>): Promise<void> {
  const [written] = await q.query<{ form: string; version: string; state: unknown }>(
    `INSERT INTO zone_forms (zone_name, version, form)
     SELECT d.name, d.zone_version, json_build_array(
         COALESCE((SELECT json_agg(json_build_array(name, type, ttl, rdata) ORDER BY created_at, id) FROM dns_records WHERE zone_name = d.name), '[]'::json),
         COALESCE((SELECT json_agg(json_build_array(name, type, ttl, rdata) ORDER BY name, type, rdata) FROM alias_addresses WHERE zone_name = d.name), '[]'::json))::text
       FROM domains d
      WHERE d.name = $1 AND d.record_count < $2 AND NOT EXISTS (SELECT 1 FROM dnssec_keys k WHERE k.zone_name = d.name)
     ON CONFLICT (zone_name) DO UPDATE SET version = EXCLUDED.version, form = EXCLUDED.form, compiled = NULL, compiled_for = NULL
     RETURNING form, version::text AS version,
       (SELECT json_build_object('serial', zone_serial, 'parked', parked, 'forward_enabled', forward_enabled, 'expired', expired) FROM domains WHERE name = $1) AS state`,
    [zone, FORM_RECORDS_BELOW],
  );
  if (!written || !compile) return;
  const state = (typeof written.state === 'string' ? JSON.parse(written.state) : written.state) as Omit<WrittenForm, 'form' | 'version'>;
  await compile(q, zone, { form: written.form, version: written.version, ...state });
}

/** The records a form holds (JSON.parse of a few records: microseconds). */
export function readZoneForm(text: string): ZoneForm {
  const [records, flattened] = JSON.parse(text) as [FormRecord[], FormRecord[]];
  const record = ([name, type, ttl, rdata]: FormRecord) => ({ name, type, ttl, rdata });
  return { records: records.map(record), flattened: flattened.map(record) };
}
