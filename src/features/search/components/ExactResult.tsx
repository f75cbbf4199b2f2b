import { useQuery } from '@tanstack/react-query';
import { explainError } from '@/lib/errors/explain.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { Notice, Spinner } from '@/ui/index.ts';
import { availabilityQuery } from '../api/check-availability.ts';
import type { ExactTarget } from '../search-input.ts';
import { AvailabilityRow } from './AvailabilityRow.tsx';

/** The exact name as typed: a reason when it is not a valid name (no request), else its availability. */
export function ExactResult({ target, onBuy }: { target: ExactTarget; onBuy: (name: string, years: number) => Promise<void> }) {
  const api = useApi();
  const query = useQuery(availabilityQuery(api, target.kind === 'name' ? target.name : undefined));
  if (target.kind === 'empty') return null;
  if (target.kind === 'invalid') {
    return (
      <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
        {target.reason}
      </p>
    );
  }
  if (query.isPending) return <Spinner size="sm" label={`Checking ${target.name}`} />;
  if (query.isError) {
    const explained = explainError(query.error);
    return <Notice tone="danger" title={explained.title}>{explained.description}</Notice>;
  }
  return (
    <section aria-label="Exact match">
      {target.typed ? (
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          International name: {target.typed} → {target.name} (the form registered and signed)
        </p>
      ) : null}
      <ul>
        <AvailabilityRow availability={query.data} onBuy={onBuy} emphasis />
      </ul>
    </section>
  );
}
