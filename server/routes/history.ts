import type { HistoryQuery } from '#core/wire/history.ts';
import { requireZoneReader } from '../access/authorise.ts';
import { historyNdjson, historyPageJson } from '../history/history-read.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { CompressedJson } from '../support/compressed-json.ts';

/** A zone's history: read by its current owner, or a wallet with a live grant (contract: History, Access). */
export const historyHandlers: Handlers = {
  async getZoneHistory({ input, principal, services }: RequestContext<HistoryQuery>) {
    await requireZoneReader(services, services.db, input.zoneName, principal, services.now());
    return new CompressedJson(await historyPageJson(services.db, input.zoneName, input));
  },

  async exportZoneHistory({ input, principal, services }: RequestContext<{ zoneName: string }>) {
    await requireZoneReader(services, services.db, input.zoneName, principal, services.now());
    return new Response(historyNdjson(services.db, input.zoneName), {
      headers: { 'content-type': 'application/x-ndjson', 'content-disposition': `attachment; filename="${input.zoneName}-history.ndjson"` },
    });
  },
};
