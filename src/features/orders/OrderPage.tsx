import { Link, useParams } from 'react-router';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Button, Card, Notice, PageHeader, Spinner } from '@/ui/index.ts';
import { OrderDetailsView } from './components/OrderDetailsView.tsx';
import { useFollowOrder } from './order-follower.ts';
import { useAccountReader } from './use-account-reader.ts';

/** /orders/:orderId — follows one order every 5 s until it finishes, then stops asking. */
export default function OrderPage() {
  const orderId = useParams().orderId ?? '';
  const { account, canRead } = useAccountReader();
  const { requestSignIn: requireSignIn } = useWalletSession();
  const order = useFollowOrder(orderId, account);
  const details = order?.details;
  const failed = order?.error !== undefined;

  const domain = details?.items[0]?.normalizedDomainName;
  const header = (
    <PageHeader
      title={domain ? `Order for ${domain}` : 'Order'}
      description={<span className="break-all">Order {orderId}</span>}
      actions={<Link to="/orders" className="text-sm underline">All orders</Link>}
    />
  );

  if (!canRead) {
    return (
      <div className="mx-auto max-w-4xl">
        {header}
        <Card className="space-y-3">
          <p>Sign in with the wallet that placed this order to follow it.</p>
          <Button onClick={() => void requireSignIn()}>Connect and sign in</Button>
        </Card>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-4xl">
      {header}
      {failed && details ? (
        <div className="mb-4">
          <Notice tone="warning" title="Could not refresh the order">
            {explainError(order?.error).description ?? 'Retrying with a longer pause.'}
          </Notice>
        </div>
      ) : null}
      {details ? (
        <OrderDetailsView details={details} />
      ) : failed ? (
        <Notice tone="danger" title={explainError(order?.error).title}>
          {explainError(order?.error).description}
        </Notice>
      ) : (
        <Spinner label="Loading the order" />
      )}
    </div>
  );
}
