import type { HistoryQuery } from '../../src/core/wire/history.ts';
import { requireOwnedDomain } from '../dns/domain-access.ts';
import { historyNdjson, historyPageJson } from '../history/history-read.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { CompressedJson } from '../support/compressed-json.ts';

/** A zone's history: read by its current owner only (contract: History). */
export const historyHandlers: Handlers = {
  async getZoneHistory({ input, principal, services }: RequestContext<HistoryQuery>) {
    await requireOwnedDomain(services, services.db, input.zoneName, principal);
    return new CompressedJson(await historyPageJson(services.db, input.zoneName, input));
  },

  async exportZoneHistory({ input, principal, services }: RequestContext<{ zoneName: string }>) {
    await requireOwnedDomain(services, services.db, input.zoneName, principal);
    return new Response(historyNdjson(services.db, input.zoneName), {
      headers: { 'content-type': 'application/x-ndjson', 'content-disposition': `attachment; filename="${input.zoneName}-history.ndjson"` },
    });
  },
};
