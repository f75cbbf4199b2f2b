import { useState } from 'react';
import type { Availability } from '#core/wire/search.ts';
import { Badge, Button } from '@/ui/index.ts';
import { unavailableReason, yearlyPrice } from './price.ts';

/** One name: whether it can be bought, its yearly price, or why not; Buy leads to checkout. */
export function AvailabilityRow({ availability, onBuy, emphasis = false }: {
  availability: Availability;
  onBuy: (name: string, years: number) => Promise<void>;
  emphasis?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const price = yearlyPrice(availability);
  const name = availability.domain;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" aria-label={name}>
      <div className="min-w-0">
        <p className={emphasis ? 'text-lg font-semibold break-all' : 'font-medium break-all'}>{name}</p>
        {availability.availability ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{price ?? 'Price on request'}</p>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">{unavailableReason(availability)}</p>
        )}
      </div>
      <div className="flex items-center gap-3">
        {availability.availability ? <Badge tone="success">Available</Badge> : <Badge tone="neutral">Unavailable</Badge>}
        {availability.availability ? (
          <Button
            size="sm"
            loading={busy}
            aria-label={`Buy ${name}`}
            onClick={async () => {
              setBusy(true);
              try {
                await onBuy(name, availability.durationValidationInYears?.min ?? 1);
              } finally {
                setBusy(false);
              }
            }}
          >
            Buy
          </Button>
        ) : null}
      </div>
    </li>
  );
}
