import * as access from '../wire/access.ts';
import { success } from '../wire/common.ts';
import { f, op, type PayloadCheck } from './define.ts';

/**
 * Access (ours; contract: Access): the owner lets other wallets help, within limits the owner signs. Granting and
 * revoking are history entries of the zone that leave its serial as it was (`history-only`). Who may do what with a
 * grant is enforced in one place, the zone-change pipeline's authorisation (server/access/authorise.ts).
 */

const sameList = (a: unknown, b: readonly string[]) => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);

/** The entry grants exactly what the owner signed. */
function grantAsSigned({ payload, entry }: PayloadCheck): string[] {
  const granted = entry.access;
  if (!granted || granted.action !== 'grant') return ['the entry grants nothing'];
  const problems: string[] = [];
  if (String(payload.grantee).toLowerCase() !== granted.grantee) problems.push(`the signature grants ${String(payload.grantee)}, the entry ${granted.grantee}`);
  if (payload.role !== granted.role) problems.push(`the signature grants the ${String(payload.role)} role, the entry ${granted.role}`);
  if (!sameList(payload.names, granted.names)) problems.push(`the signature grants names ${JSON.stringify(payload.names)}, the entry ${JSON.stringify(granted.names)}`);
  if (!sameList(payload.types, granted.types)) problems.push(`the signature grants types ${JSON.stringify(payload.types)}, the entry ${JSON.stringify(granted.types)}`);
  if (Number(payload.expiresAt) * 1000 !== Date.parse(granted.expiresAt)) problems.push(`the signature grants until ${String(payload.expiresAt)}, the entry until ${granted.expiresAt}`);
  return problems;
}

export const accessOperations = {
  grantZoneAccess: op({
    id: 'grantZoneAccess', method: 'POST', path: '/dns/grants', tag: 'access',
    summary: 'Let another wallet read or change a zone, within names, types and a time the owner signs (ours); owner only, never an API key',
    auth: 'write', input: access.grantZoneAccessInput, output: access.zoneGrant, errors: [403, 404, 409],
    signed: {
      structs: { GrantZoneAccess: [f('zoneName', 'string'), f('grantee', 'address'), f('role', 'string'), f('names', 'string[]'), f('types', 'string[]'), f('expiresAt', 'uint256')] },
      accepted: ['GrantZoneAccessEnvelope'],
      matches: grantAsSigned,
      notice: (input: access.GrantZoneAccessInput) => `Let ${input.grantee} act as ${input.role} on ${input.zoneName} until ${new Date(input.expiresAt * 1000).toISOString().slice(0, 10)} (GrantZoneAccess)`,
    },
    zone: { of: (input: access.GrantZoneAccessInput) => input.zoneName, change: 'history-only' },
    history: { changes: [], access: true, words: 'Granted access', title: (entry) => (entry.access ? `${entry.access.action === 'grant' ? 'Granted' : 'Revoked'} ${entry.access.role} access to ${entry.access.grantee}` : undefined) },
    changes: { account: ['domains'] },
  }),

  revokeZoneAccess: op({
    id: 'revokeZoneAccess', method: 'DELETE', path: '/dns/grants', tag: 'access',
    summary: 'End a grant: by the owner, or by the grantee giving it up (ours)',
    auth: 'write', input: access.revokeZoneAccessInput, output: success, errors: [403, 404],
    signed: {
      structs: { RevokeZoneAccess: [f('zoneName', 'string'), f('grantId', 'string')] },
      accepted: ['RevokeZoneAccessEnvelope'],
      matches: ({ payload, entry }) => (entry.access?.action === 'revoke' && entry.access.grantId === payload.grantId ? [] : [`the signature revokes grant ${String(payload.grantId)}, the entry ${entry.access ? `${entry.access.action}s ${entry.access.grantId}` : 'revokes nothing'}`]),
      notice: (input: access.RevokeZoneAccessInput) => `End grant ${input.grantId.slice(0, 8)} on ${input.zoneName} (RevokeZoneAccess)`,
    },
    zone: { of: (input: access.RevokeZoneAccessInput) => input.zoneName, change: 'history-only' },
    history: { changes: [], access: true, words: 'Revoked access', title: (entry) => (entry.access ? `Revoked ${entry.access.role} access of ${entry.access.grantee}` : undefined) },
    changes: { account: ['domains'] },
  }),

  listZoneAccess: op({
    id: 'listZoneAccess', method: 'GET', path: '/dns/grants', tag: 'access',
    summary: 'A zone\u2019s grants: every one (revoked included) for the owner, their own for a grantee (ours)',
    auth: 'siwe', input: access.listZoneAccessQuery, output: access.zoneGrantList, errors: [403, 404],
  }),

  getSharedDomains: op({
    id: 'getSharedDomains', method: 'GET', path: '/user/shared-domains', tag: 'access',
    summary: 'Domains other wallets let the caller help with, under live grants (ours)',
    auth: 'siwe', output: access.sharedDomains,
  }),
};
