import type { ManagedSettings } from '#core/dns/managed.ts';
import type { OperationId } from '#core/operations/index.ts';
import type { Database, Queryable } from '../db/database.ts';
import { authoriseZoneChange, requireChangeInScope, type ZoneAuthority } from '../access/authorise.ts';
import { FORWARDING_COLUMNS, type ForwardingRow } from '../dns/forwarding-row.ts';
import { managedSettings } from '../dns/managed-settings.ts';
import { writeZoneForm } from '../dns/zone-form.ts';
import { formCompiler } from '../dns-server/compiled-form.ts';
import type { DoorChange, ZoneChangeFacts } from '#core/wire/history.ts';
import { recordChange, type ChangeAuthor } from '../history/record-change.ts';
import { conflict, invalidInput, notFound } from '../domain-errors.ts';
import { expiryState } from '#core/expiry.ts';
import type { Principal, Services } from '../services.ts';

/**
 * The one path of every change of a zone: records (single, batch, an order's initial records, an import), parking,
 * forwarding, DNSSEC and the service's own signature renewals. Inside one transaction, in this order:
 *
 *   authorise (the owner, a grantee, a scoped key: server/access/authorise.ts; an order or the service act as themselves) → lock the zone's row → run the command, which
 *   checks the zone rules, writes, and says what it changed → move the serial once, and write the zone's form (the
 *   records a cold query reads: server/dns/zone-form.ts) → record one history entry with
 *   its actor and signature → commit → announce
 *
 * A command that changed nothing answers no facts: no serial, no entry. The announcement is the serial's: the one
 * statement here that gives the zone a new version moves its serial and notifies `namefi_zone` at commit (migration
 * 035), on which every instance drops its cached answers, re-signs a signed zone and sends NOTIFY to secondaries.
 * The database refuses a new version from any other statement (migration 054), so a writer that bypasses this
 * pipeline fails rather than leave a serial without its history entry.
 */

/** The zone's row as the pipeline locked it: what commands read before they change anything. */
export interface LockedZone extends ForwardingRow {
  name: string;
  parked: boolean;
  /** Whether the zone answers the "expired" holding page (redemption): what the expiry worker turns on and off. */
  expired: boolean;
  expires_at: Date | string;
}

interface CommandContext {
  now: Date;
  managed: ManagedSettings;
}

interface CommandOutcome<R> {
  /** What the operation answers. */
  result: R;
  /** What the change did, for its history entry; null when it did nothing (no serial, no entry). */
  facts: ZoneChangeFacts | null;
  /** Stored records added minus removed, kept in domains.record_count and held to ZONE_RECORD_LIMIT. */
  recordDelta?: number;
  /** False for a change that leaves what the zone answers as it was (granting access): an entry, no new serial. */
  movesSerial?: boolean;
}

/** A change of one zone: what it does, once the pipeline has authorised it and locked the zone. */
export interface ZoneCommand<R> {
  apply(tx: Queryable, zone: LockedZone, context: CommandContext): Promise<CommandOutcome<R>>;
}

/** Who changes the zone: a request's principal (checked as the zone's owner), or an order or the service as itself. */
type ZoneActor = { principal: Principal | null; operation: OperationId | DoorChange; grantId?: string } | { author: ChangeAuthor };

export interface ZoneChange<R> {
  zoneName: string;
  by: ZoneActor;
  command: ZoneCommand<R>;
  /** The change's time; the service's clock otherwise. */
  now?: Date;
}

export type PipelineServices = Pick<Services, 'ownership' | 'config' | 'now'> & { db: Database };

/** Runs a change in a transaction of its own. */
export function changeZone<R>(services: PipelineServices, change: ZoneChange<R>): Promise<R> {
  return services.db.transaction((tx) => changeZoneWithin(services, tx, change));
}

/** Runs a change inside the caller's transaction (an order's registration), which commits or rolls back with it. */
export async function changeZoneWithin<R>(services: Omit<PipelineServices, 'db'>, tx: Queryable, change: ZoneChange<R>): Promise<R> {
  const { zoneName, by, command } = change;
  const now = change.now ?? services.now();
  // The owner, a grantee within their grant, a key within its scope (server/access/authorise.ts, the one place).
  const authority: ZoneAuthority = 'author' in by ? { author: by.author, scopes: [] } : await authoriseZoneChange(services, tx, { zoneName, ...by, now });
  const { author } = authority;
  const zone = await lockZone(tx, zoneName);
  // In redemption no change of the owner's is taken (a renewal restores the domain first); the service's own still are.
  if (!('author' in by)) refuseAfterGrace(zone, now, services.config);
  const outcome = await command.apply(tx, zone, { now, managed: managedSettings(services.config) });
  if (!outcome.facts) return outcome.result;
  // What the command did, every record before and after, within the grant's and the key's scope; else all rolls back.
  requireChangeInScope(authority, zoneName, outcome.facts);
  if (outcome.movesSerial !== false) {
    await moveSerial(tx, zoneName, outcome, services.config.ZONE_RECORD_LIMIT);
    // The zone's ready-to-serve form, of the version this change made, and that form compiled for the name server's
    // threads under this service's settings: a cold query reads them in one indexed read.
    await writeZoneForm(tx, zoneName, compilerFor(services.config));
  }
  await recordChange(tx, zoneName, author, outcome.facts, now);
  return outcome.result;
}

/** One compiler per configuration: its settings are made and tagged once, not at every change. */
const compilers = new WeakMap<object, ReturnType<typeof formCompiler>>();
function compilerFor(config: PipelineServices['config']): ReturnType<typeof formCompiler> {
  let compile = compilers.get(config);
  if (!compile) compilers.set(config, (compile = formCompiler(config)));
  return compile;
}

/**
 * Locks the zone for this transaction: two changes of one zone, from any process, check and write one after the
 * other, and each reads what the one before it committed.
 */
async function lockZone(tx: Queryable, zoneName: string): Promise<LockedZone> {
  const [row] = await tx.query<LockedZone>(`SELECT name, parked, expired, expires_at, ${FORWARDING_COLUMNS} FROM domains WHERE name = $1 FOR UPDATE`, [zoneName]);
  if (!row) throw notFound(`No domain ${zoneName} is registered here`);
  return row;
}

function refuseAfterGrace(zone: LockedZone, now: Date, config: Pick<Services['config'], 'GRACE_DAYS' | 'REDEMPTION_DAYS'>): void {
  const state = expiryState(new Date(zone.expires_at), now, { graceDays: config.GRACE_DAYS, redemptionDays: config.REDEMPTION_DAYS });
  if (state.status === 'redemption' || state.status === 'released') {
    throw conflict(
      `${zone.name} is in redemption (expired on ${state.expiresAt.toISOString().slice(0, 10)}): its records cannot be changed. Renew it, with the restore fee, before ${state.redemptionEndsAt.toISOString().slice(0, 10)} to bring them back.`,
      { status: state.status, expiresAt: state.expiresAt.toISOString(), redemptionEndsAt: state.redemptionEndsAt.toISOString() },
    );
  }
}

/**
 * The only statement that gives a zone a new version, and so a new serial (the single-use token it sets is what the
 * database's trigger accepts), with the zone's record count; a change that would take the zone past its limit is
 * refused, and its transaction with it.
 */
async function moveSerial(tx: Queryable, zoneName: string, outcome: CommandOutcome<unknown>, limit: number): Promise<void> {
  const delta = outcome.recordDelta ?? 0;
  const [row] = await tx.query<{ record_count: number }>(
    `UPDATE domains SET zone_version = gen_random_uuid(), record_count = record_count + $2
      WHERE name = $1 AND set_config('namefi.zone_change', $1, true) = $1 RETURNING record_count`,
    [zoneName, delta],
  );
  if (row && delta > 0 && row.record_count > limit) {
    const adding = outcome.facts!.changes.filter((c) => c.op === 'create').length;
    throw invalidInput({}, { formErrors: [`A zone holds at most ${limit.toLocaleString('en-US')} records; ${zoneName} has ${row.record_count - delta}, and this adds ${adding}`] });
  }
}
