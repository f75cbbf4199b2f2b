import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Button, Card, EmptyState, Notice, PageHeader, Spinner } from '@/ui/index.ts';
import { userOrdersQuery } from './api/get-user-orders.ts';
import { StatusBadge } from './components/StatusBadge.tsx';
import { formatUsdCents } from '@/lib/format.ts';
import { formatTime, groupByOrder, itemInWords } from './order-view.ts';
import { useAccountReader } from './use-account-reader.ts';

/** /orders — the account's orders, newest first, one card per order with its items. */
export default function OrdersPage() {
  const api = useApi();
  const { account, canRead } = useAccountReader();
  const { requestSignIn: requireSignIn } = useWalletSession();
  const orders = useQuery(userOrdersQuery(api, account, canRead));
  const header = <PageHeader title="Orders" description="Registrations you ordered, newest first." />;

  if (!canRead) {
    return (
      <div className="mx-auto max-w-4xl">
        {header}
        <EmptyState title="Sign in to see your orders" action={<Button onClick={() => void requireSignIn()}>Connect and sign in</Button>} />
      </div>
    );
  }
  if (orders.isPending) return <div className="mx-auto max-w-4xl">{header}<Spinner label="Loading orders" /></div>;
  if (orders.isError) {
    const explained = explainError(orders.error);
    return <div className="mx-auto max-w-4xl">{header}<Notice tone="danger" title={explained.title}>{explained.description}</Notice></div>;
  }
  const groups = groupByOrder(orders.data);
  return (
    <div className="mx-auto max-w-4xl">
      {header}
      {groups.length === 0 ? (
        <EmptyState title="No orders yet" description="Find a name and buy it; its order shows here." action={<Link to="/search" className="underline">Search for a domain</Link>} />
      ) : (
        <ul className="space-y-3" aria-label="Orders">
          {groups.map((group) => (
            <li key={group.orderId}>
              <Card className="space-y-2">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link to={`/orders/${encodeURIComponent(group.orderId)}`} className="font-medium underline">
                    Order of <time dateTime={group.createdAt}>{formatTime(group.createdAt)}</time>
                  </Link>
                  <div className="flex items-center gap-3 text-sm">
                    <span>{formatUsdCents(group.amountInUSDCents)}</span>
                    <StatusBadge status={group.status} />
                  </div>
                </div>
                <ul className="text-sm">
                  {group.items.map((item) => (
                    <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 py-1 dark:border-slate-700">
                      <span className="break-all">{item.normalizedDomainName} · {itemInWords(item)}</span>
                      <StatusBadge status={item.status} />
                    </li>
                  ))}
                </ul>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
