import type { Queryable } from '../db/database.ts';
import type { ManagedSettings } from '../../src/core/dns/managed.ts';
import { HttpError } from '../http/errors.ts';
import type { ZoneRecordInput } from '../../src/core/wire/dns.ts';
import { checkRecords } from '../dns/zone-validate.ts';
import { applyZoneChange } from '../dns/zone-write.ts';
import type { ChangeAuthor } from '../history/record-change.ts';

export type AppliedRecords = { ok: true } | { ok: false; message: string; data?: unknown };

/**
 * Writes a new domain's initial records through the zone write, inside the registration's transaction. A
 * savepoint undoes a partial write, so a set the zone rules refuse leaves the domain registered with no records.
 */
export async function applyInitialRecords(tx: Queryable, zoneName: string, records: readonly ZoneRecordInput[], now: Date, author: ChangeAuthor, managed: ManagedSettings): Promise<AppliedRecords> {
  await tx.query('SAVEPOINT initial_records');
  try {
    await applyZoneChange(tx, checkRecords(zoneName, { creates: [...records] }, 'records'), { now, author, managed });
    await tx.query('RELEASE SAVEPOINT initial_records');
    return { ok: true };
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT initial_records');
    if (error instanceof HttpError && error.status === 400) return { ok: false, message: error.message, data: error.data };
    throw error;
  }
}
