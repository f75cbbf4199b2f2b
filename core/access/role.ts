import { operationById } from '../operations/index.ts';
import type { GrantRole } from './scope.ts';

/**
 * The role an operation needs of a grantee, from its declaration: settings (parking, forwarding, DNSSEC) need a
 * manager, records an editor; null: the owner alone (granting, and anything that is not a change of the zone).
 */
export function roleNeeded(operation: string): GrantRole | null {
  const declared = operationById(operation);
  if (!declared?.zone || !declared.history || declared.history.access) return null;
  const { history } = declared;
  return history.parking || history.forwarding || history.dnssec ? 'manager' : 'editor';
}
