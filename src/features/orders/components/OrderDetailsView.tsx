import { Link } from 'react-router';
import { isTerminal, type OrderDetails } from '#core/wire/orders.ts';
import { Card, Notice } from '@/ui/index.ts';
import { formatUsdCents } from '@/lib/format.ts';
import { chainLabel, failureReason, formatTime, itemInWords, nextStepAdvice, orderOrigin, orderSummary } from '../order-view.ts';
import { OrderTimeline } from './OrderTimeline.tsx';
import { StatusBadge } from './StatusBadge.tsx';

/** Everything about one order: progress, items, what was charged, and what to do next. */
export function OrderDetailsView({ details }: { details: OrderDetails }) {
  const { order, items, payments } = details;
  const failures = items.flatMap((item) => {
    const reason = failureReason(item);
    return reason ? [{ domain: item.normalizedDomainName, reason }] : [];
  });
  const advice = nextStepAdvice(order.status);
  const succeeded = items.filter((i) => i.status === 'SUCCEEDED' || (order.status === 'PARTIALLY_COMPLETED' && i.status !== 'FAILED' && i.status !== 'CANCELLED'));
  const summary = orderSummary(details);
  const done = order.status === 'SUCCEEDED' || order.status === 'PARTIALLY_COMPLETED';
  return (
    <div className="space-y-6">
      <Card className="space-y-3">
        <h2 className="text-xl font-semibold break-all">{summary.names}</h2>
        <p aria-label="Order summary" className="text-sm text-slate-700 dark:text-slate-300">
          {summary.price} · {summary.owner}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {items.map((item) => `${item.normalizedDomainName}: ${itemInWords(item)}`).join('; ')}
          {orderOrigin(order) ? ` · ${orderOrigin(order)}` : ''}
        </p>
        {done && succeeded[0] ? (
          <Link
            className="inline-flex items-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2"
            to={`/domains/${encodeURIComponent(succeeded[0].normalizedDomainName)}`}
          >
            Manage {succeeded[0].normalizedDomainName}
          </Link>
        ) : null}
      </Card>
      <Card className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="text-lg font-semibold">Status</h2>
          <span role="status" aria-live="polite" aria-label="Order status">
            <StatusBadge status={order.status} />
          </span>
          {!isTerminal(order.status) ? (
            <span className="text-sm text-slate-600 dark:text-slate-400">Checking every few seconds…</span>
          ) : null}
        </div>
        <OrderTimeline order={order} />
      </Card>

      {failures.length > 0 || (advice && isTerminal(order.status)) ? (
        <Notice tone={order.status === 'PARTIALLY_COMPLETED' ? 'warning' : 'danger'} title={order.status === 'PARTIALLY_COMPLETED' ? 'Partly done' : 'The order did not go through'}>
          <ul className="list-disc pl-5">
            {failures.map((f) => (
              <li key={f.domain}>
                {f.domain}: {f.reason}
              </li>
            ))}
          </ul>
          {advice ? <p className="mt-1">{advice}</p> : null}
          {order.status !== 'PARTIALLY_COMPLETED' ? (
            <p className="mt-1">
              <Link className="underline" to={`/search?q=${encodeURIComponent(items[0]?.normalizedDomainName.split('.')[0] ?? '')}`}>
                Search again
              </Link>
            </p>
          ) : null}
        </Notice>
      ) : null}

      {succeeded.length > 0 && (order.status === 'SUCCEEDED' || order.status === 'PARTIALLY_COMPLETED') ? (
        <Notice tone="success" title="Registered">
          {succeeded.map((item) => (
            <p key={item.id}>
              <Link className="font-medium underline" to={`/domains/${encodeURIComponent(item.normalizedDomainName)}`}>
                Manage the records of {item.normalizedDomainName}
              </Link>
            </p>
          ))}
        </Notice>
      ) : null}

      <Card>
        <h2 className="mb-2 text-lg font-semibold">Items</h2>
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="text-slate-600 dark:text-slate-400">
              <th scope="col" className="py-1">Domain</th>
              <th scope="col">Years</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="py-2 break-all">{item.normalizedDomainName}</td>
                <td>{item.durationInYears}</td>
                <td>{formatUsdCents(item.amountInUSDCents)}</td>
                <td><StatusBadge status={item.status} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <Card>
        <h2 className="mb-2 text-lg font-semibold">Charged</h2>
        {payments.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {isTerminal(order.status) ? 'Nothing was charged.' : `${formatUsdCents(order.amountInUSDCents)} will be charged from your credit when processing starts.`}
          </p>
        ) : (
          <ul className="space-y-1 text-sm">
            {payments.map((p) => (
              <li key={p.id}>
                {formatUsdCents(p.amountInUSDCents)} from credit · {p.status.toLowerCase()} · <time dateTime={p.createdAt}>{formatTime(p.createdAt)}</time>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          NFT to {order.nftWalletAddress} on {chainLabel(order.nftChainId)}
        </p>
      </Card>
    </div>
  );
}
