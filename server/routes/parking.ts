import type { ParkDomainInput, ToggleParkingInput } from '../../src/core/wire/parking.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { isParked, setParking } from '../dns/parking-store.ts';
import { authorOf } from '../history/record-change.ts';
import type { Handlers, RequestContext } from '../http/context.ts';

async function park(ctx: RequestContext, domain: string, parked: boolean, overrideExistingRecords: boolean) {
  const { services, principal } = ctx;
  await services.db.transaction(async (tx) => {
    await requireOwnedDomain(services, tx, domain, principal);
    await setParking(tx, domain, { parked, overrideExistingRecords, now: services.now(), author: authorOf(ctx.operationId, principal!) });
  });
  return { success: true } as const;
}

export const parkingHandlers: Handlers = {
  parkDomain: (ctx: RequestContext<ParkDomainInput>) => park(ctx, ctx.input.normalizedDomainName, true, ctx.input.overrideExistingRecords),

  toggleDomainParking: (ctx: RequestContext<ToggleParkingInput>) =>
    park(ctx, ctx.input.normalizedDomainName, ctx.input.enableParking, ctx.input.enableParking && ctx.input.overrideExistingRecords),

  async isDomainParked({ input, services }: RequestContext<{ normalizedDomainName: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return { parked: await isParked(services.db, input.normalizedDomainName) };
  },
};
