import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { managedSettings } from '../dns/managed-settings.ts';
import { readZoneForm, type WrittenForm } from '../dns/zone-form.ts';
import { soaTimers } from './serving-options.ts';
import { compileThreadZone } from './thread-zone.ts';
import { buildSnapshot, DEFAULT_SOA, type NameServerSettings, type SoaTimers, type StoredRecord } from './zone-snapshot.ts';
import type { ManagedSettings } from '#core/dns/managed.ts';
import { withTrailingDot } from '#core/dns/names.ts';

/**
 * A zone's form compiled for the UDP threads (thread-zone.ts), kept in the database beside its stored form
 * (migration 090): what a cold query to the zone is answered from, without building its snapshot. The pipeline
 * compiles it in the transaction of each change, with the settings of the instance that made the change; an instance
 * takes it only when it was compiled for its own settings (`compiledFor`), else it builds the zone from its form.
 */

/** The layout's version (thread-zone.cjs): a form of another layout is not taken. */
const { FORM_VERSION } = createRequire(import.meta.url)('./thread-zone.cjs') as { FORM_VERSION: number };

/** The name server's settings: its NS names (lowercase, absolute), the managed records' settings and the SOA timers. */
export function nameServerSettings(nameservers: string[], managed: ManagedSettings, soa: SoaTimers = DEFAULT_SOA): NameServerSettings {
  return { ...managed, nameservers: nameservers.map((n) => withTrailingDot(n).toLowerCase()), soa, nsTtl: 3600 };
}

/** The name server's settings as the service's configuration gives them (service.ts, and the pipeline's compiling). */
export function configuredSettings(config: Pick<Config, 'DNS_NAMESERVERS' | 'FORWARD_ADDRESSES' | 'DNS_SOA_REFRESH' | 'DNS_SOA_RETRY' | 'DNS_SOA_EXPIRE' | 'DNS_SOA_MINIMUM'>): NameServerSettings {
  return nameServerSettings(config.DNS_NAMESERVERS, managedSettings(config), soaTimers(config));
}

const tags = new WeakMap<NameServerSettings, string>();
/** What a compiled form was compiled for: the settings (SOA, NS, managed records) and the form's layout version. */
export function compiledFor(settings: NameServerSettings): string {
  let tag = tags.get(settings);
  if (tag === undefined) {
    tag = createHash('sha256').update(JSON.stringify([FORM_VERSION, settings])).digest('base64url').slice(0, 22);
    tags.set(settings, tag);
  }
  return tag;
}

/** The zone compiled for the threads from its stored form under `settings`, or null when a thread could not answer it whole. */
function compileStoredForm(zone: string, row: WrittenForm, settings: NameServerSettings): Buffer | null {
  const form = readZoneForm(row.form);
  const state = { serial: Number(row.serial), version: row.version, parked: row.parked, forwarding: row.forward_enabled, expired: row.expired };
  return compileThreadZone(buildSnapshot(zone, state, form.records as StoredRecord[], settings, undefined, form.flattened as Array<{ name: string; type: 'A' | 'AAAA'; ttl: number; rdata: string }>));
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
