import { operationById } from '../operations/index.ts';
import type { GrantRole } from './scope.ts';

/** The standard doors' changes (DNS UPDATE, DynDNS2; contract: The standard doors): no declaration of their own, records only. */
const DOOR_CHANGES = ['dnsUpdate', 'dynDnsUpdate'] as const;
export type DoorChange = (typeof DOOR_CHANGES)[number];

/**
 * The role an operation needs of a grantee, from its declaration: settings (parking, forwarding, DNSSEC) need a
 * manager, records an editor (a door's change too); null: the owner alone (granting, and anything that is not a
 * change of the zone).
 */
export function roleNeeded(operation: string): GrantRole | null {
  if ((DOOR_CHANGES as readonly string[]).includes(operation)) return 'editor';
  const declared = operationById(operation);
  if (!declared?.zone || !declared.history || declared.history.access) return null;
  const { history } = declared;
  return history.parking || history.forwarding || history.dnssec ? 'manager' : 'editor';
}
