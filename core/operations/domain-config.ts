import { z } from 'zod';
import { isoDate, success, zoneName } from '../wire/common.ts';
import * as parking from '../wire/parking.ts';
import * as dnssec from '../wire/dnssec.ts';
import * as forwarding from '../wire/forwarding.ts';
import { f, op, type PayloadCheck } from './define.ts';

/**
 * The contract's domain-config group, one declaration per operation: parking, DNSSEC, URL forwarding and auto-renew.
 * An operation of this group is declared here, so a new one touches this file and not the table's index; schemas an
 * operation alone uses live beside its declaration (auto-renew's), shared ones in ../wire/.
 */

/** The entry parks or unparks as signed, and deletes records only when parking was signed to replace them. */
function parkingAsSigned(c: PayloadCheck): string[] {
  const problems: string[] = [];
  const parked = c.struct === 'ParkDomain' ? true : c.payload.enableParking === true;
  const after = c.entry.parking?.after;
  if (after !== parked) problems.push(`the signature ${parked ? 'parks' : 'unparks'} the domain, the entry ${after ? 'parks' : 'unparks'} it`);
  if (c.deleted.length > 0 && !(parked && c.payload.overrideExistingRecords === true)) problems.push('the entry deletes records the signature did not ask to replace');
  return problems;
}

const zoneOfDomain = { of: (input: { normalizedDomainName: string }) => input.normalizedDomainName, change: 'content' } as const;

const parkingOperations = {
  parkDomain: op({
    id: 'parkDomain', method: 'POST', path: '/dns/park', tag: 'domain-config', summary: 'Park a domain', auth: 'write', input: parking.parkDomainInput, output: success,
    signed: {
      structs: { ParkDomain: [f('normalizedDomainName', 'string'), f('overrideExistingRecords', 'bool')] },
      accepted: ['ParkDomainEnvelope'],
      matches: parkingAsSigned,
    },
    zone: zoneOfDomain,
    history: { changes: ['delete'], parking: true, forwarding: true, words: 'Parked the domain' },
  }),

  toggleDomainParking: op({
    id: 'toggleDomainParking', method: 'PUT', path: '/dns/park', tag: 'domain-config', summary: 'Park or unpark a domain', auth: 'write', input: parking.toggleParkingInput, output: success,
    signed: {
      structs: { ToggleDomainParking: [f('normalizedDomainName', 'string'), f('enableParking', 'bool'), f('overrideExistingRecords', 'bool')] },
      accepted: ['ToggleDomainParkingEnvelope'],
      matches: parkingAsSigned,
      notice: (input: parking.ToggleParkingInput) => `${input.enableParking ? 'Park' : 'Unpark'} ${input.normalizedDomainName} (ToggleDomainParking)`,
    },
    zone: zoneOfDomain,
    history: { changes: ['delete'], parking: true, forwarding: true, words: 'Changed parking' },
  }),

  isDomainParked: op({ id: 'isDomainParked', method: 'GET', path: '/dns/parked', tag: 'domain-config', summary: 'Whether a domain is parked', auth: 'none', input: parking.parkedQuery, output: parking.parkedStatus }),
};

/**
 * The entry does what the signature says: turns signing on or off, or (signed on) leaves the zone signed as chosen.
 * A change of the choice alone leaves `dnssec` out of the entry (the zone was signed before and after).
 */
function dnssecAsSigned({ payload, entry }: PayloadCheck): string[] {
  const enabled = payload.enabled === true;
  const on = entry.dnssec?.after ?? (entry.dnssecSigning || entry.dnssecRollover ? true : undefined);
  if (on !== enabled) return [`the signature turns DNSSEC ${enabled ? 'on' : 'off'}, the entry ${on === undefined ? 'changes no signing' : `turns it ${on ? 'on' : 'off'}`}`];
  if (payload.dsAtParent !== undefined) {
    const said = entry.dnssecRollover?.dsAtParent;
    return said === Number(payload.dsAtParent) ? [] : [`the signature says the parent holds the DS of key ${String(payload.dsAtParent)}, the entry ${said === undefined ? 'records no DS at the parent' : `says key ${said}`}`];
  }
  const after = entry.dnssecSigning?.after;
  const problems: string[] = [];
  if (payload.algorithm !== undefined && after && Number(payload.algorithm) !== after.algorithm) problems.push(`the signature chooses algorithm ${String(payload.algorithm)}, the entry ${after.algorithm}`);
  if (payload.denial !== undefined && after && payload.denial !== after.denial) problems.push(`the signature chooses ${String(payload.denial)}, the entry ${after.denial}`);
  if (payload.nsec3OptOut !== undefined && after && payload.nsec3OptOut !== after.nsec3OptOut) problems.push('the signature and the entry differ on NSEC3 opt-out');
  return problems;
}

/** What the wallet signs, in one line. */
function dnssecNotice(input: dnssec.ToggleDnssecInput): string {
  if (input.dsAtParent !== undefined) return `Say that the parent of ${input.normalizedDomainName} now holds the DS of key ${input.dsAtParent}, so the old key may go (ConfirmParentDs)`;
  if (!input.enabled) return `Turn DNSSEC off for ${input.normalizedDomainName} (ToggleDnssec)`;
  const choice = input.algorithm !== undefined ? ` with algorithm ${input.algorithm}, ${input.denial ?? 'nsec'}` : '';
  return `Turn DNSSEC on for ${input.normalizedDomainName}${choice} (${choice ? 'SetDnssec' : 'ToggleDnssec'})`;
}

const dnssecOperations = {
  getDnssec: op({ id: 'getDnssec', method: 'GET', path: '/dns/dnssec', tag: 'domain-config', summary: 'Whether a zone is signed (DNSSEC), and its DS record', auth: 'none', input: dnssec.dnssecQuery, output: dnssec.dnssecState }),

  toggleDnssec: op({
    id: 'toggleDnssec', method: 'PUT', path: '/dns/dnssec', tag: 'domain-config', summary: 'Sign a zone (DNSSEC) or stop signing it', auth: 'write', input: dnssec.toggleDnssecInput, output: dnssec.dnssecState,
    signed: {
      structs: {
        ToggleDnssec: [f('normalizedDomainName', 'string'), f('enabled', 'bool')],
        // Ours: how the zone is signed, signed with the switch (issue 49 item 5).
        SetDnssec: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('algorithm', 'uint256'), f('denial', 'string'), f('nsec3OptOut', 'bool')],
        // Ours: during an algorithm rollover, the owner's word that the parent holds the new key's DS (its key tag).
        ConfirmParentDs: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('dsAtParent', 'uint256')],
      },
      accepted: ['SetDnssecEnvelope', 'ToggleDnssecEnvelope', 'ConfirmParentDsEnvelope'],
      matches: dnssecAsSigned,
      notice: dnssecNotice,
    },
    zone: { of: (input: dnssec.ToggleDnssecInput) => input.normalizedDomainName, change: 'content' },
    history: { changes: [], dnssec: true, dnssecSigning: true, dnssecRollover: true, words: 'Changed DNSSEC' },
  }),
};

const FORWARDING_FIELDS = ['enabled', 'targetUrl', 'statusCode', 'keepPath'] as const;

const forwardingOperations = {
  getForwarding: op({ id: 'getForwarding', method: 'GET', path: '/domain-config/forwarding', tag: 'domain-config', summary: 'A domain\u2019s URL forwarding (ours)', auth: 'none', input: forwarding.forwardingQuery, output: forwarding.forwarding }),

  setForwarding: op({
    id: 'setForwarding', method: 'PUT', path: '/domain-config/forwarding', tag: 'domain-config', summary: 'Forward a domain to a URL, or stop (ours); turns parking off', auth: 'write', input: forwarding.setForwardingInput, output: forwarding.forwarding,
    signed: {
      structs: { SetForwarding: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('targetUrl', 'string'), f('statusCode', 'uint256'), f('keepPath', 'bool')] },
      accepted: ['SetForwardingEnvelope'],
      matches: ({ payload, entry }) => {
        const after = (entry.forwarding?.after ?? {}) as Record<string, unknown>;
        return FORWARDING_FIELDS.flatMap((field) => {
          const signedValue = field === 'statusCode' ? Number(payload[field]) : payload[field];
          return after[field] !== signedValue ? [`the signature sets forwarding ${field} to ${JSON.stringify(signedValue)}, the entry to ${JSON.stringify(after[field])}`] : [];
        });
      },
      notice: (input: forwarding.SetForwardingInput) => `Forward ${input.normalizedDomainName} to ${input.targetUrl}, status ${input.statusCode} (SetForwarding)`,
    },
    zone: { of: (input: forwarding.SetForwardingInput) => input.normalizedDomainName, change: 'content' },
    // Forwarding turned on for a parked domain unparks it too: the entry is about forwarding.
    history: {
      changes: [],
      forwarding: true,
      parking: true,
      words: 'Changed forwarding',
      title: (entry) => {
        const to = entry.forwarding?.after;
        return to ? (to.enabled ? `Forwarded to ${to.targetUrl}` : 'Stopped forwarding') : undefined;
      },
    },
  }),

  tryForwarding: op({ id: 'tryForwarding', method: 'GET', path: '/domain-config/forwarding/try', tag: 'domain-config', summary: 'Ask the service\u2019s forwarder for a path of the domain and answer the redirect it gave (ours)', auth: 'none', input: forwarding.tryForwardingQuery, output: forwarding.forwardingTrial }),
};

// Auto-renew (ours): its wire form.
/** Auto-renew renews for 1 to 10 years at a time (the registration's own range). */
export const AUTO_RENEW_YEARS = { min: 1, max: 10 } as const;

/** A domain never switched answers these (the contract's defaults). */
export const AUTO_RENEW_DEFAULTS = { enabled: false, durationInYears: 1, nextAttemptAt: null, lastAttempt: null } as const;

const durationInYears = z
  .number({ error: `durationInYears must be a whole number of years, ${AUTO_RENEW_YEARS.min} to ${AUTO_RENEW_YEARS.max}` })
  .int(`durationInYears must be a whole number of years, ${AUTO_RENEW_YEARS.min} to ${AUTO_RENEW_YEARS.max}`)
  .min(AUTO_RENEW_YEARS.min, `durationInYears is at least ${AUTO_RENEW_YEARS.min} year`)
  .max(AUTO_RENEW_YEARS.max, `durationInYears is at most ${AUTO_RENEW_YEARS.max} years`);

/** What the last automatic renewal did; null until one has been tried. */
const lastAttempt = z.object({
  at: isoDate,
  outcome: z.enum(['renewed', 'short-of-credit', 'failed']),
  orderId: z.string().nullable(),
  reason: z.string().nullable(),
});

/** A domain's auto-renew setting (ours): `nextAttemptAt` is the expiry less AUTO_RENEW_DAYS while enabled, else null. */
const autoRenewSetting = z.object({
  normalizedDomainName: z.string(),
  enabled: z.boolean(),
  durationInYears: z.number().int(),
  nextAttemptAt: isoDate.nullable(),
  lastAttempt: lastAttempt.nullable(),
});
export type AutoRenew = z.infer<typeof autoRenewSetting>;

const autoRenewQuery = z.object({ normalizedDomainName: zoneName });
export const setAutoRenewInput = z.object({ normalizedDomainName: zoneName, enabled: z.boolean(), durationInYears });
export type SetAutoRenewInput = z.infer<typeof setAutoRenewInput>;

/**
 * Auto-renew (ours; production's domain-config group has a switch with no published shape). The switch changes
 * nothing the zone answers, so it declares no `zone` and writes no history entry: an automatic renewal's effects
 * will be the zone's entries, with the service as their actor.
 */
const autoRenewOperations = {
  getAutoRenew: op({ id: 'getAutoRenew', method: 'GET', path: '/domain-config/auto-renew', tag: 'domain-config', summary: 'Whether a domain renews itself before it expires, and when it next tries (ours)', auth: 'none', input: autoRenewQuery, output: autoRenewSetting, errors: [404] }),

  setAutoRenew: op({
    id: 'setAutoRenew', method: 'PUT', path: '/domain-config/auto-renew', tag: 'domain-config', summary: 'Switch a domain\u2019s auto-renew on or off, and for how many years it renews (ours); owner only', auth: 'write', input: setAutoRenewInput, output: autoRenewSetting,
    errors: [403, 404],
    signed: {
      structs: { SetAutoRenew: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('durationInYears', 'uint256')] },
      accepted: ['SetAutoRenewEnvelope'],
      notice: (input: SetAutoRenewInput) =>
        input.enabled
          ? `Renew ${input.normalizedDomainName} automatically, ${input.durationInYears} year${input.durationInYears === 1 ? '' : 's'} at a time, from your credit (SetAutoRenew)`
          : `Stop renewing ${input.normalizedDomainName} automatically (SetAutoRenew)`,
    },
    changes: { of: (input: SetAutoRenewInput) => input.normalizedDomainName, domain: ['settings'], account: ['domains'] },
  }),
};

export const domainConfigOperations = { ...parkingOperations, ...dnssecOperations, ...forwardingOperations, ...autoRenewOperations };
