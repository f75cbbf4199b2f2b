import type {
  ApplyDnsChangesInput,
  BatchCreateInput,
  BatchDeleteInput,
  BatchUpdateInput,
  CreateDnsRecordInput,
  DeleteDnsRecordInput,
  UpdateDnsRecordInput,
} from '#core/wire/dns.ts';
import type { ScanZoneQuery } from '#core/operations/records.ts';
import type { MailCheckQuery } from '#core/wire/mail.ts';
import { checkMail } from '../dns/mail-check.ts';
import { serviceResolution, serviceResolver } from '../dns/resolver.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { scanZone } from '../dns/scan.ts';
import { zoneAnswer } from '../dns/zone-read.ts';
import { managedSettings } from '../dns/managed-settings.ts';
import { checkRecords, type ZoneChangeRequest } from '../dns/zone-validate.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { changeZone } from '../zones/pipeline.ts';
import { recordsCommand } from '../zones/records.ts';

/**
 * A signed DNS write, in the contract's order: the records on their own (checkRecords, before anything is looked
 * up), then the zone-change pipeline (ownership, the zone locked, ids, the zone rules, the write), all or nothing.
 * `pathPrefix`: where a record's errors land (see recordPaths).
 */
function writeZone(ctx: RequestContext, zoneName: string, request: ZoneChangeRequest, pathPrefix: string) {
  const command = recordsCommand(checkRecords(zoneName, request, pathPrefix));
  return changeZone(ctx.services, { zoneName, by: { principal: ctx.principal, operation: ctx.operationId }, command });
}

export const dnsHandlers: Handlers = {
  async getDnsRecords({ input, services }: RequestContext<{ zoneName: string }>) {
    await requireRegisteredDomain(services, services.db, input.zoneName);
    return zoneAnswer(services.db, services.zoneCache, input.zoneName, managedSettings(services.config));
  },

  async checkMailAuth({ input, services }: RequestContext<MailCheckQuery>) {
    await requireRegisteredDomain(services, services.db, input.zoneName);
    return { findings: await checkMail(input.zoneName, serviceResolver(services)) };
  },

  /** The old provider's records, for the dashboard's change set: the owner only (it makes the service send queries); nothing written. */
  async scanZone({ input, principal, services }: RequestContext<ScanZoneQuery>) {
    await requireOwnedDomain(services, services.db, input.zoneName, principal);
    const { config } = services;
    return scanZone(input.zoneName, input.nameserver, {
      resolvers: config.DNS_RESOLVER,
      allowPrivate: config.SCAN_ALLOW_PRIVATE,
      recordLimit: config.ZONE_RECORD_LIMIT,
      resolveName: serviceResolution(services),
    });
  },

  async createDnsRecord(ctx: RequestContext<CreateDnsRecordInput>) {
    const { zoneName, ...record } = ctx.input;
    const [created] = await writeZone(ctx, zoneName, { creates: [record] }, '');
    return created;
  },

  async updateDnsRecord(ctx: RequestContext<UpdateDnsRecordInput>) {
    const { zoneName, ...update } = ctx.input;
    const [updated] = await writeZone(ctx, zoneName, { updates: [update] }, '');
    return updated;
  },

  async deleteDnsRecord(ctx: RequestContext<DeleteDnsRecordInput>) {
    await writeZone(ctx, ctx.input.zoneName, { deletes: [ctx.input.id] }, '');
    return { success: true };
  },

  async batchCreateDnsRecords(ctx: RequestContext<BatchCreateInput>) {
    return writeZone(ctx, ctx.input.zoneName, { creates: ctx.input.records }, 'records');
  },

  async batchUpdateDnsRecords(ctx: RequestContext<BatchUpdateInput>) {
    return writeZone(ctx, ctx.input.zoneName, { updates: ctx.input.records }, 'records');
  },

  async batchDeleteDnsRecords(ctx: RequestContext<BatchDeleteInput>) {
    await writeZone(ctx, ctx.input.zoneName, { deletes: ctx.input.recordsIds }, 'records');
    return { success: true };
  },

  async applyDnsChanges(ctx: RequestContext<ApplyDnsChangesInput>) {
    const { zoneName, creates, updates, deletes } = ctx.input;
    // The command answers the created records, then the updated ones.
    const written = await writeZone(ctx, zoneName, { creates, updates, deletes }, 'changes');
    return { created: written.slice(0, creates.length), updated: written.slice(creates.length), deleted: deletes };
  },
};
