import type { Order } from '#core/wire/orders.ts';
import { cx } from '@/ui/index.ts';
import { formatTime, orderTimeline } from '../order-view.ts';

/** Created → Processing → result, with the times the service recorded. */
export function OrderTimeline({ order }: { order: Order }) {
  const steps = orderTimeline(order);
  return (
    <ol aria-label="Order progress" className="flex flex-col gap-3 sm:flex-row sm:gap-6">
      {steps.map((step) => (
        <li key={step.label} aria-current={step.state === 'current' ? 'step' : undefined} className="flex items-start gap-2">
          <span
            aria-hidden="true"
            className={cx(
              'mt-1 inline-block h-3 w-3 shrink-0 rounded-full',
              step.state === 'done' && 'bg-brand-700 dark:bg-brand-400',
              step.state === 'current' && 'animate-pulse bg-sky-500',
              step.state === 'upcoming' && 'border border-slate-400 bg-transparent',
            )}
          />
          <div>
            <p className="text-sm font-medium">
              {step.label}
              <span className="sr-only">{step.state === 'done' ? ' (done)' : step.state === 'current' ? ' (in progress)' : ' (not yet)'}</span>
            </p>
            {step.at ? (
              <p className="text-xs text-slate-600 dark:text-slate-400">
                <time dateTime={step.at}>{formatTime(step.at)}</time>
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
