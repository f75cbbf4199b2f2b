import type { ParkDomainInput, ToggleParkingInput } from '../../src/core/wire/parking.ts';
import { requireRegisteredDomain } from '../dns/domain-access.ts';
import { isParked } from '../dns/parking-store.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { parkingCommand } from '../zones/parking.ts';
import { changeZone } from '../zones/pipeline.ts';

const park = (ctx: RequestContext, zoneName: string, parked: boolean, overrideExistingRecords: boolean) =>
  changeZone(ctx.services, { zoneName, by: { principal: ctx.principal, operation: ctx.operationId }, command: parkingCommand({ parked, overrideExistingRecords }) });

export const parkingHandlers: Handlers = {
  parkDomain: (ctx: RequestContext<ParkDomainInput>) => park(ctx, ctx.input.normalizedDomainName, true, ctx.input.overrideExistingRecords),

  toggleDomainParking: (ctx: RequestContext<ToggleParkingInput>) =>
    park(ctx, ctx.input.normalizedDomainName, ctx.input.enableParking, ctx.input.enableParking && ctx.input.overrideExistingRecords),

  async isDomainParked({ input, services }: RequestContext<{ normalizedDomainName: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return { parked: await isParked(services.db, input.normalizedDomainName) };
  },
};
