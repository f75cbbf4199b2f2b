import { operationById } from '../operations/index.ts';
import { DOOR_CHANGE_WORDS } from '../wire/history.ts';
import type { GrantRole } from './scope.ts';

/**
 * The role an operation needs of a grantee, from its declaration: settings (parking, forwarding, DNSSEC) need a
 * manager, records an editor; null: the owner alone (granting, and anything that is not a change of the zone). A change
 * through a standard door (DNS UPDATE, DynDNS2) writes records only: an editor's (which an offline verifier of a
 * grantee's entry asks here too).
 */
export function roleNeeded(operation: string): GrantRole | null {
  if (Object.hasOwn(DOOR_CHANGE_WORDS, operation)) return 'editor';
  const declared = operationById(operation);
  if (!declared?.zone || !declared.history || declared.history.access) return null;
  const { history } = declared;
  return history.parking || history.forwarding || history.dnssec ? 'manager' : 'editor';
}
