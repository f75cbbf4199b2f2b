import { useQuery } from '@tanstack/react-query';
import type { OperationId } from '#core/operations/index.ts';
import { typesForMethodQuery } from './signing-queries.ts';

/**
 * Whether the service offers an operation of ours (forwarding, DNSSEC): production answers `found: false` to
 * types-for-method for them, so a page says the action needs this project's service instead of failing.
 * 'checking' until the (session-cached) answer arrives; an unreadable answer counts as supported, so the
 * operation's own call reports what went wrong.
 */
export function useServiceSupports(method: OperationId): 'checking' | 'yes' | 'no' {
  const types = useQuery(typesForMethodQuery(method));
  if (types.isPending) return 'checking';
  return types.data?.found === false ? 'no' : 'yes';
}
