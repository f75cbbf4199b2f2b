import { createHash, randomUUID } from 'node:crypto';
import type { AgentCredential } from './service-call.ts';

export const PLAN_TTL_MS = 10 * 60_000;
export const QUOTE_TTL_MS = 5 * 60_000;
/** How long a spending call's answer is kept for a retry with the same idempotency key. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** A previewed change set: bound to the key that previewed it and to the zone's state then. */
export interface Plan {
  id: string;
  holder: string;
  zoneName: string;
  /** The zone's newest history entry when previewed (id and serial): any change since makes the plan stale. */
  head: { id: string | null; serial: number | null };
  creates: Array<{ name: string; type: string; rdata: string; ttl: number }>;
  updates: Array<{ id: string; name: string; type: string; rdata: string; ttl: number; before: { name: string; type: string; rdata: string; ttl: number } }>;
  deletes: Array<{ id: string; name: string; type: string; rdata: string; ttl: number }>;
  expiresAt: number;
}

/** A price said to the agent: bound to the key, the name, the years and the price. */
export interface Quote {
  id: string;
  holder: string;
  kind: 'register' | 'renew';
  domain: string;
  years: number;
  totalInUSDCents: number;
  expiresAt: number;
  used: boolean;
}

/** The plans, quotes and spending answers of the MCP server (in memory: a plan or a quote outlives no restart). */
export interface McpStores {
  plans: Map<string, Plan>;
  quotes: Map<string, Quote>;
  /** By holder and idempotency key: what the call was and its answer (a promise, so a retry in flight waits for it). */
  spent: Map<string, { what: string; answer: Promise<Record<string, unknown>>; at: number }>;
}

export function createStores(): McpStores {
  return { plans: new Map(), quotes: new Map(), spent: new Map() };
}

/** Who holds a plan or a quote: the key's hash (never the key), or "anonymous". */
export const holderOf = (credential: AgentCredential): string =>
  credential.apiKey ? createHash('sha256').update(credential.apiKey).digest('hex') : 'anonymous';

export const newId = (prefix: string) => `${prefix}_${randomUUID()}`;

/** Forgets what has expired (called on each use: the maps stay as small as the last ten minutes' work). */
export function sweep(stores: McpStores, now: number): void {
  for (const [id, plan] of stores.plans) if (plan.expiresAt <= now) stores.plans.delete(id);
  for (const [id, quote] of stores.quotes) if (quote.expiresAt <= now) stores.quotes.delete(id);
  for (const [key, entry] of stores.spent) if (entry.at + IDEMPOTENCY_TTL_MS <= now) stores.spent.delete(key);
}
