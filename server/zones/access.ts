import { randomUUID } from 'node:crypto';
import { MAX_LIVE_GRANTS, type GrantZoneAccessInput, type ZoneGrant } from '#core/wire/access.ts';
import type { SignedWrite } from '#core/wire/history.ts';
import { endGrant, grantById, grantFor, insertGrant, liveGrants, wireGrant } from '../access/grants.ts';
import { conflict, invalidInput, notFound } from '../domain-errors.ts';
import type { ZoneCommand } from './pipeline.ts';

/**
 * Granting and revoking access (contract: Access): commands of the zone-change pipeline, which has authorised the
 * caller (the owner grants; the owner or the grantee revokes) and locked the zone. Each is a history entry that leaves
 * the zone's serial as it was: what the zone answers does not change.
 */

export function grantCommand(input: GrantZoneAccessInput, grantor: { wallet: string; signed: SignedWrite | undefined }): ZoneCommand<ZoneGrant> {
  return {
    async apply(tx, zone, { now }) {
      const expiresAt = new Date(input.expiresAt * 1000);
      if (expiresAt.getTime() <= now.getTime()) throw invalidInput({ expiresAt: ['A grant ends in the future'] });
      if (expiresAt.getTime() > new Date(zone.expires_at).getTime()) {
        throw invalidInput({ expiresAt: [`A grant ends no later than the domain does (${new Date(zone.expires_at).toISOString().slice(0, 10)})`] });
      }
      if (input.grantee === grantor.wallet.toLowerCase()) throw invalidInput({ grantee: ['The owner needs no grant: name another wallet'] });
      if (!grantor.signed) throw invalidInput({}, { formErrors: ['A grant is the owner\u2019s signed object: sign it (EIP-712)'] });
      const live = await liveGrants(tx, zone.name, now);
      if (live.length >= MAX_LIVE_GRANTS) throw conflict(`${zone.name} has ${MAX_LIVE_GRANTS} live grants, the most a zone may have: revoke one first`);
      const existing = await grantFor(tx, zone.name, input.grantee, now);
      if (existing && !existing.revokedAt && Date.parse(existing.expiresAt) > now.getTime()) {
        throw conflict(`${input.grantee} already holds a live ${existing.role} grant for ${zone.name}: revoke it first`, { grantId: existing.id });
      }
      const grant: ZoneGrant = {
        id: randomUUID(),
        zoneName: zone.name,
        grantee: input.grantee,
        role: input.role,
        names: input.names,
        types: input.types,
        expiresAt: expiresAt.toISOString(),
        grantedBy: grantor.wallet.toLowerCase(),
        createdAt: now.toISOString(),
        revokedAt: null,
        signed: grantor.signed,
      };
      await insertGrant(tx, grant);
      const { id, grantee, role, names, types } = grant;
      return { result: grant, facts: { changes: [], access: { action: 'grant', grantId: id, grantee, role, names, types, expiresAt: grant.expiresAt } }, movesSerial: false };
    },
  };
}

export function revokeCommand(grantId: string, by: { wallet: string; owner: boolean }): ZoneCommand<{ success: true }> {
  return {
    async apply(tx, zone, { now }) {
      const grant = await grantById(tx, zone.name, grantId);
      if (!grant) throw notFound(`No grant ${grantId} for ${zone.name}`);
      if (grant.revokedAt) return { result: { success: true }, facts: null };
      await endGrant(tx, grant.id, now, by.owner ? 'owner' : 'grantee');
      const { id, grantee, role, names, types, expiresAt } = wireGrant(grant);
      return { result: { success: true }, facts: { changes: [], access: { action: 'revoke', grantId: id, grantee, role, names, types, expiresAt } }, movesSerial: false };
    },
  };
}
