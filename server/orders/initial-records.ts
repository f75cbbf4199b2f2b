import type { Queryable } from '../db/database.ts';
import { DomainError } from '../domain-errors.ts';
import type { Services } from '../services.ts';
import type { ZoneRecordInput } from '#core/wire/dns.ts';
import { checkRecords } from '../dns/zone-validate.ts';
import type { ChangeAuthor } from '../history/record-change.ts';
import { changeZoneWithin } from '../zones/pipeline.ts';
import { recordsCommand } from '../zones/records.ts';

export type AppliedRecords = { ok: true } | { ok: false; message: string; data?: unknown };

/**
 * Writes a new domain's initial records through the zone-change pipeline, inside the registration's transaction. A
 * savepoint undoes a partial write, so a set the zone rules refuse leaves the domain registered with no records.
 */
export async function applyInitialRecords(services: Pick<Services, 'ownership' | 'config' | 'now'>, tx: Queryable, zoneName: string, records: readonly ZoneRecordInput[], now: Date, author: ChangeAuthor): Promise<AppliedRecords> {
  await tx.query('SAVEPOINT initial_records');
  try {
    await changeZoneWithin(services, tx, { zoneName, by: { author }, command: recordsCommand(checkRecords(zoneName, { creates: [...records] }, 'records')), now });
    await tx.query('RELEASE SAVEPOINT initial_records');
    return { ok: true };
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT initial_records');
    if (error instanceof DomainError && error.kind === 'invalid') return { ok: false, message: error.message, data: error.data };
    throw error;
  }
}
