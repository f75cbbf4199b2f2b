import { getAddress, isAddress } from 'viem';
import { isTerminal, type Order, type OrderItem } from '#core/wire/orders.ts';
import { formatUsdCents, shortAddress } from '@/lib/format.ts';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const STATUS_WORDS: Record<string, { label: string; tone: Tone }> = {
  CREATED: { label: 'Created', tone: 'neutral' },
  PROCESSING: { label: 'Processing', tone: 'info' },
  SUCCEEDED: { label: 'Succeeded', tone: 'success' },
  FAILED: { label: 'Failed', tone: 'danger' },
  CANCELLED: { label: 'Cancelled', tone: 'danger' },
  PARTIALLY_COMPLETED: { label: 'Partially completed', tone: 'warning' },
};

export function statusWords(status: string): { label: string; tone: Tone } {
  return STATUS_WORDS[status] ?? { label: status, tone: 'neutral' };
}

export interface TimelineStep {
  label: string;
  /** ISO time the step happened, or null while it has not. */
  at: string | null;
  state: 'done' | 'current' | 'upcoming';
}

/** Created → Processing → the result, with the times the service recorded. */
export function orderTimeline(order: Pick<Order, 'status' | 'createdAt' | 'startedAt' | 'finishedAt'>): TimelineStep[] {
  const done = isTerminal(order.status);
  const started = order.startedAt !== null || order.status === 'PROCESSING' || done;
  return [
    { label: 'Created', at: order.createdAt, state: 'done' },
    {
      label: 'Processing',
      at: order.startedAt,
      state: done ? 'done' : started ? 'current' : 'upcoming',
    },
    {
      label: done ? statusWords(order.status).label : 'Result',
      at: order.finishedAt,
      state: done ? 'done' : 'upcoming',
    },
  ];
}

/** metadata.failureDetails in words, whatever shape the service chose (string or an object with a message). */
export function failureReason(item: Pick<OrderItem, 'metadata'>): string | undefined {
  const metadata = item.metadata as Record<string, unknown> | null | undefined;
  const details = metadata && typeof metadata === 'object' ? metadata.failureDetails : undefined;
  if (details === undefined || details === null || details === '') return undefined;
  if (typeof details === 'string') return details;
  if (typeof details === 'object') {
    const d = details as Record<string, unknown>;
    for (const key of ['message', 'reason', 'error', 'description']) {
      if (typeof d[key] === 'string' && d[key]) return d[key] as string;
    }
  }
  return JSON.stringify(details);
}

/** What the person can do about an order that did not fully succeed. */
export function nextStepAdvice(status: string): string | undefined {
  switch (status) {
    case 'FAILED':
    case 'CANCELLED':
      return 'Nothing was charged for the failed items (any charge was refunded). Search for the name again, or pick another one.';
    case 'PARTIALLY_COMPLETED':
      return 'The domain is yours, but some records could not be created. Add them from the domain’s records page.';
    default:
      return undefined;
  }
}

export interface OrderGroup {
  orderId: string;
  createdAt: string;
  items: OrderItem[];
  amountInUSDCents: number;
  /** The status every item shares, or the least finished one while they differ. */
  status: string;
}

const PROGRESS = ['CREATED', 'PROCESSING'];

/** Groups /user/orders items by their order, newest order first, items in their original order. */
export function groupByOrder(items: OrderItem[]): OrderGroup[] {
  const groups = new Map<string, OrderGroup>();
  for (const item of items) {
    let group = groups.get(item.orderId);
    if (!group) {
      group = { orderId: item.orderId, createdAt: item.createdAt, items: [], amountInUSDCents: 0, status: item.status };
      groups.set(item.orderId, group);
    }
    group.items.push(item);
    group.amountInUSDCents += item.amountInUSDCents;
    if (item.createdAt < group.createdAt) group.createdAt = item.createdAt;
    if (item.status !== group.status) {
      const pending = [item.status, group.status].find((s) => PROGRESS.includes(s));
      group.status = pending ?? (group.status === 'SUCCEEDED' || item.status === 'SUCCEEDED' ? 'PARTIALLY_COMPLETED' : group.status);
    }
  }
  return [...groups.values()].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

export function formatTime(iso: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

const CHAIN_NAMES: Record<number, string> = {
  1: 'Ethereum',
  8453: 'Base',
  11155111: 'Sepolia',
  46630: 'Robinhood Chain Testnet',
  31337: 'Local chain',
};

/** A chain's name as the wallet menus say it; an unknown id stays a number. */
export function chainLabel(chainId: number): string {
  return CHAIN_NAMES[chainId] ?? `chain ${chainId}`;
}

/** The order in one line a person reads: the names, what was (or will be) paid, and who owns the result where. */
export function orderSummary(
  details: { order: Pick<Order, 'status' | 'amountInUSDCents' | 'nftWalletAddress' | 'nftChainId'>; items: Array<Pick<OrderItem, 'normalizedDomainName'>>; payments: Array<{ amountInUSDCents: number; status: string }> },
): { names: string; price: string; owner: string } {
  const paid = details.payments.filter((p) => p.status !== 'FAILED' && p.status !== 'REFUNDED').reduce((sum, p) => sum + p.amountInUSDCents, 0);
  const price =
    details.payments.length > 0
      ? `${formatUsdCents(paid)} paid`
      : isTerminal(details.order.status)
        ? 'nothing paid'
        : `${formatUsdCents(details.order.amountInUSDCents)} to pay`;
  // Shown as wallets show it (checksummed): the service stores addresses in lower case.
  const raw = details.order.nftWalletAddress;
  const address = isAddress(raw, { strict: false }) ? getAddress(raw) : raw;
  const short = shortAddress(address);
  return {
    names: details.items.map((i) => i.normalizedDomainName).join(', '),
    price,
    owner: `owned by ${short} on ${chainLabel(details.order.nftChainId)}`,
  };
}

/** What an order item does, in words: a registration or a renewal, and for how long. */
export function itemInWords(item: Pick<OrderItem, 'type' | 'durationInYears'>): string {
  const years = `${item.durationInYears} year${item.durationInYears === 1 ? '' : 's'}`;
  return `${item.type === 'RENEW' ? 'renewal' : 'registration'}, ${years}`;
}

/** Who placed the order when no person did: the auto-renew worker, which pays from the owner's credit. */
export function orderOrigin(order: Pick<Order, 'metadata'>): string | undefined {
  const metadata = order.metadata as Record<string, unknown> | null | undefined;
  return metadata && typeof metadata === 'object' && metadata.autoRenew === true ? 'Placed by auto-renew, paid from the owner\u2019s credit' : undefined;
}
