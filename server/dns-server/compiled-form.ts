import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Queryable } from '../db/database.ts';
import { readZoneForm, type WrittenForm } from '../dns/zone-form.ts';
import { configuredSettings } from './serving-options.ts';
import { compileThreadZone } from './thread-zone.ts';
import { buildSnapshot, zoneStateOf, type FlattenedAddresses, type NameServerSettings, type StoredRecord } from './zone-snapshot.ts';

/**
 * A zone's form compiled for the UDP threads (thread-zone.ts), kept in the database beside its stored form
 * (migration 090): what a cold query to the zone is answered from, without building its snapshot. The pipeline
 * compiles it in the transaction of each change, with the settings of the instance that made the change; an instance
 * takes it only when it was compiled for its own settings (`compiledFor`), else it builds the zone from its form.
 */

/** The layout's version (thread-zone.cjs): a form of another layout is not taken. */
const { FORM_VERSION } = createRequire(import.meta.url)('./thread-zone.cjs') as { FORM_VERSION: number };

/** What a compiled form was compiled for: the settings (SOA, NS, managed records) and the form's layout version. */
export function compiledFor(settings: NameServerSettings): string {
  return createHash('sha256').update(JSON.stringify([FORM_VERSION, settings])).digest('base64url').slice(0, 22);
}

/** The zone compiled for the threads from its stored form under `settings`, or null when a thread could not answer it whole. */
function compileStoredForm(zone: string, row: WrittenForm, settings: NameServerSettings): Buffer | null {
  const form = readZoneForm(row.form);
  return compileThreadZone(buildSnapshot(zone, zoneStateOf(row), form.records as StoredRecord[], settings, undefined, form.flattened as FlattenedAddresses));
}

/** Compiles the zone's form just written (writeZoneForm) for the settings of `config`, in the same transaction. */
export function formCompiler(config: Parameters<typeof configuredSettings>[0]) {
  const settings = configuredSettings(config);
  const tag = compiledFor(settings);
  return async (tx: Queryable, zone: string, row: WrittenForm): Promise<void> => {
    const compiled = compileStoredForm(zone, row, settings);
    if (compiled) await tx.query('UPDATE zone_forms SET compiled = $2, compiled_for = $3 WHERE zone_name = $1', [zone, compiled, tag]);
  };
}
