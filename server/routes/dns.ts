import type {
  BatchCreateInput,
  BatchDeleteInput,
  BatchUpdateInput,
  CreateDnsRecordInput,
  DeleteDnsRecordInput,
  UpdateDnsRecordInput,
} from '../../src/core/wire/dns.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { applyZoneChange, checkRecordInputs, zoneJson, type ZoneChangeRequest } from '../dns/zone-store.ts';
import { JsonText } from '../http/router.ts';
import type { Handlers, RequestContext } from '../http/context.ts';

/** Input first; then one transaction: ownership, ids, rules and the write itself, all or nothing. */
async function write(ctx: RequestContext, zoneName: string, change: ZoneChangeRequest, pathPrefix: string) {
  const { services, principal } = ctx;
  checkRecordInputs(zoneName, change, pathPrefix);
  return services.db.transaction(async (tx) => {
    await requireOwnedDomain(services, tx, zoneName, principal);
    return applyZoneChange(tx, zoneName, change, { now: services.now(), pathPrefix });
  });
}

export const dnsHandlers: Handlers = {
  async getDnsRecords({ input, services }: RequestContext<{ zoneName: string }>) {
    await requireRegisteredDomain(services, services.db, input.zoneName);
    return new JsonText(await zoneJson(services.db, input.zoneName));
  },

  async createDnsRecord(ctx: RequestContext<CreateDnsRecordInput>) {
    const { zoneName, ...record } = ctx.input;
    const [created] = await write(ctx, zoneName, { creates: [record] }, '');
    return created;
  },

  async updateDnsRecord(ctx: RequestContext<UpdateDnsRecordInput>) {
    const { zoneName, ...update } = ctx.input;
    const [updated] = await write(ctx, zoneName, { updates: [update] }, '');
    return updated;
  },

  async deleteDnsRecord(ctx: RequestContext<DeleteDnsRecordInput>) {
    await write(ctx, ctx.input.zoneName, { deletes: [ctx.input.id] }, '');
    return { success: true };
  },

  async batchCreateDnsRecords(ctx: RequestContext<BatchCreateInput>) {
    return write(ctx, ctx.input.zoneName, { creates: ctx.input.records }, 'records');
  },

  async batchUpdateDnsRecords(ctx: RequestContext<BatchUpdateInput>) {
    return write(ctx, ctx.input.zoneName, { updates: ctx.input.records }, 'records');
  },

  async batchDeleteDnsRecords(ctx: RequestContext<BatchDeleteInput>) {
    await write(ctx, ctx.input.zoneName, { deletes: ctx.input.recordsIds }, 'records');
    return { success: true };
  },
};
