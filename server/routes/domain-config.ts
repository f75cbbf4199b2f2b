import type { ParkDomainInput, ToggleParkingInput } from '../../src/core/wire/parking.ts';
import { requireOwnedDomain, requireRegisteredDomain } from '../dns/domain-access.ts';
import { isParked } from '../dns/parking-store.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import { parkingCommand } from '../zones/parking.ts';
import { changeZone } from '../zones/pipeline.ts';
import type { ToggleDnssecInput } from '../../src/core/wire/dnssec.ts';
import { dnssecState } from '../dnssec/state.ts';
import { dnssecCommand } from '../zones/dnssec.ts';
import type { Forwarding, SetForwardingInput } from '../../src/core/wire/forwarding.ts';
import { readForwarding } from '../dns/forwarding-store.ts';
import { notFound } from '../domain-errors.ts';
import { tryForwarder } from '../forwarder/forwarder.ts';
import { forwardingCommand } from '../zones/forwarding.ts';
import { AUTO_RENEW_DEFAULTS, type AutoRenew } from '../../src/core/operations/domain-config.ts';
import type { Queryable } from '../db/database.ts';
import type { DomainToken } from '../ownership/ownership.ts';

/**
 * The handlers of the contract's domain-config group (src/core/operations/domain-config.ts): parking, DNSSEC, URL
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
    changeZone(services, { zoneName: input.normalizedDomainName, by: { principal, operation: operationId }, command: dnssecCommand(input.enabled) }),
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

const DAY_MS = 86_400_000;

/**
 * Auto-renew (ours): a plain owner-checked write of one row, not a change of the zone. The switch changes nothing
 * the zone answers (no serial, no history entry; the contract lists no auto-renew entry): what an automatic renewal
 * does will be the zone's entries. Renewal orders do not exist yet, so nothing renews: `lastAttempt` stays null.
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
      await tx.query(
        `INSERT INTO auto_renew (domain_name, enabled, duration_in_years, set_by, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (domain_name) DO UPDATE SET enabled = EXCLUDED.enabled, duration_in_years = EXCLUDED.duration_in_years,
           set_by = EXCLUDED.set_by, updated_at = EXCLUDED.updated_at`,
        [token.name, input.enabled, input.durationInYears, token.owner.toLowerCase(), services.now().toISOString()],
      );
      return readAutoRenew(tx, token, services.config.AUTO_RENEW_DAYS);
    }),
};

interface AutoRenewRow {
  enabled: boolean;
  duration_in_years: number;
  set_by: string;
  last_attempt_at: Date | string | null;
  last_attempt_outcome: NonNullable<AutoRenew['lastAttempt']>['outcome'] | null;
  last_attempt_order_id: string | null;
  last_attempt_reason: string | null;
}

/**
 * The domain's setting as its current owner has it: a setting written by an earlier holder counts for nothing (the
 * defaults), so a domain that moved never spends the new holder's credit. `nextAttemptAt` is the expiry less
 * `days` while enabled (in the past when the domain expires sooner than that: the attempt is due).
 */
async function readAutoRenew(q: Queryable, token: DomainToken, days: number): Promise<AutoRenew> {
  const [row] = await q.query<AutoRenewRow>(
    'SELECT enabled, duration_in_years, set_by, last_attempt_at, last_attempt_outcome, last_attempt_order_id, last_attempt_reason FROM auto_renew WHERE domain_name = $1',
    [token.name],
  );
  if (!row || row.set_by !== token.owner.toLowerCase()) return { normalizedDomainName: token.name, ...AUTO_RENEW_DEFAULTS };
  return {
    normalizedDomainName: token.name,
    enabled: row.enabled,
    durationInYears: row.duration_in_years,
    nextAttemptAt: row.enabled ? new Date(token.expiresAt.getTime() - days * DAY_MS).toISOString() : null,
    lastAttempt:
      row.last_attempt_at && row.last_attempt_outcome
        ? { at: new Date(row.last_attempt_at).toISOString(), outcome: row.last_attempt_outcome, orderId: row.last_attempt_order_id, reason: row.last_attempt_reason }
        : null,
  };
}

export const domainConfigHandlers: Handlers = { ...parkingHandlers, ...dnssecHandlers, ...forwardingHandlers, ...autoRenewHandlers };
