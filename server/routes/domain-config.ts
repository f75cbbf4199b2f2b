import type { ParkDomainInput, ToggleParkingInput } from '#core/wire/parking.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { isParked } from '../dns/parking-store.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { parkingCommand } from '../zones/parking.ts';
import { changeZone } from '../zones/pipeline.ts';
import type { ToggleDnssecInput } from '#core/wire/dnssec.ts';
import { dnssecState } from '../dnssec/state.ts';
import { dnssecCommand } from '../zones/dnssec.ts';
import { rolloverTimers } from '../zones/dnssec-rollover.ts';
import type { Forwarding, SetForwardingInput } from '#core/wire/forwarding.ts';
import { readForwarding } from '../dns/forwarding-store.ts';
import { notFound } from '../domain-errors.ts';
import { tryForwarder } from '../forwarder/forwarder.ts';
import { forwardingCommand } from '../zones/forwarding.ts';
import { readAutoRenew, writeAutoRenew } from '../renewal/auto-renew-store.ts';

/**
 * The handlers of the contract's domain-config group (core/operations/domain-config.ts): parking, DNSSEC, URL
 * forwarding and auto-renew. Changes of the zone go through the zone-change pipeline; reads return plain data.
 */

const park = (ctx: RequestContext, zoneName: string, parked: boolean, overrideExistingRecords: boolean) =>
  changeZone(ctx.services, { zoneName, by: { principal: ctx.principal, operation: ctx.operationId }, command: parkingCommand({ parked, overrideExistingRecords }) });

const parkingHandlers: Handlers = {
  parkDomain: (ctx: RequestContext<ParkDomainInput>) => park(ctx, ctx.input.normalizedDomainName, true, ctx.input.overrideExistingRecords),

  toggleDomainParking: (ctx: RequestContext<ToggleParkingInput>) =>
    park(ctx, ctx.input.normalizedDomainName, ctx.input.enableParking, ctx.input.enableParking && ctx.input.overrideExistingRecords),

  async isDomainParked({ input, services }: RequestContext<{ normalizedDomainName: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return { parked: await isParked(services.db, input.normalizedDomainName) };
  },
};

const dnssecHandlers: Handlers = {
  async getDnssec({ input, services }: RequestContext<{ normalizedDomainName: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return dnssecState(services.db, input.normalizedDomainName);
  },

  /** Creates or removes the zone's key; a change of state is a change of the zone (new serial, signed or not at once). */
  toggleDnssec: ({ input, services, principal, operationId }: RequestContext<ToggleDnssecInput>) =>
    changeZone(services, { zoneName: input.normalizedDomainName, by: { principal, operation: operationId }, command: dnssecCommand(input, rolloverTimers(services.config)) }),
};

const forwardingHandlers: Handlers = {
  async getForwarding({ input, services }: RequestContext<{ normalizedDomainName: string }>): Promise<Forwarding> {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return readForwarding(services.db, input.normalizedDomainName);
  },

  setForwarding: ({ input, services, principal, operationId }: RequestContext<SetForwardingInput>): Promise<Forwarding> =>
    changeZone(services, { zoneName: input.normalizedDomainName, by: { principal, operation: operationId }, command: forwardingCommand(input) }),

  async tryForwarding({ input, services }: RequestContext<{ normalizedDomainName: string; path: string }>) {
    await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    if (!services.forwarderOrigin) throw notFound('This service runs no forwarder (FORWARD_PORT is not set)');
    return tryForwarder(services.forwarderOrigin, input.normalizedDomainName, input.path);
  },
};

/**
 * Auto-renew (ours): a plain owner-checked write of one row, not a change of the zone (no serial, no history entry;
 * the contract lists no auto-renew entry). The setting and the worker that renews from it live in server/renewal/.
 */
const autoRenewHandlers: Handlers = {
  async getAutoRenew({ input, services }) {
    const token = await requireRegisteredDomain(services, services.db, input.normalizedDomainName);
    return readAutoRenew(services.db, token, services.config.AUTO_RENEW_DAYS);
  },

  /** Owner only (a grantee never sets it, and neither does anyone paying a renewal as a gift). */
  setAutoRenew: ({ input, services, principal }) =>
    services.db.transaction(async (tx) => {
      const token = await requireOwnedDomain(services, tx, input.normalizedDomainName, principal);
      await writeAutoRenew(tx, token, input, services.now());
      return readAutoRenew(tx, token, services.config.AUTO_RENEW_DAYS);
    }),
};

export const domainConfigHandlers: Handlers = { ...parkingHandlers, ...dnssecHandlers, ...forwardingHandlers, ...autoRenewHandlers };
