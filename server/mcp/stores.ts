import { createHash, randomUUID } from 'node:crypto';
import { DAY_MS } from '#core/dates.ts';
import type { Queryable } from '../db/database.ts';
import type { AgentCredential } from './service-call.ts';

export const PLAN_TTL_MS = 10 * 60_000;
export const QUOTE_TTL_MS = 5 * 60_000;
/** How long a spending call's answer is kept for a retry with the same idempotency key. */
const IDEMPOTENCY_TTL_MS = DAY_MS;

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

type Answer = Record<string, unknown>;

/** What a spending call under an idempotency key finds: the first call, or the earlier call's purpose and answer. */
type SpendStart = { first: true } | { first: false; what: string; answer: () => Promise<Answer> };

/**
 * The plans, quotes and spending answers of the MCP server. The service keeps them in its database, so a plan
 * previewed on one instance is applied on another and a retried purchase is answered once whichever instance it
 * reaches; the stdio program, one client in one process, keeps them in memory.
 */
export interface McpStores {
  savePlan(plan: Plan): Promise<void>;
  /** The plan, taken out (a plan is used once, whatever follows); null when unknown, expired or another holder's. */
  takePlan(id: string, holder: string, now: number): Promise<Plan | null>;
  saveQuote(quote: Quote): Promise<void>;
  /** A live quote, used or not; null when unknown or expired. */
  readQuote(id: string, now: number): Promise<Quote | null>;
  /** Marks the quote used; false when another call used it first. */
  claimQuote(id: string): Promise<boolean>;
  releaseQuote(id: string): Promise<void>;
  /** Starts a spending call under (holder, idempotency key), or finds the earlier one (its answer waited for while it runs). */
  beginSpend(holder: string, key: string, what: string, now: number): Promise<SpendStart>;
  finishSpend(holder: string, key: string, answer: Answer): Promise<void>;
  /** The call failed and charged nothing: the key may be used again. */
  forgetSpend(holder: string, key: string): Promise<void>;
}

export function memoryStores(): McpStores {
  const plans = new Map<string, Plan>();
  const quotes = new Map<string, Quote>();
  const spent = new Map<string, { what: string; at: number; answer: Promise<Answer>; settle: (a: Answer | Error) => void }>();
  const sweep = (now: number) => {
    for (const [id, plan] of plans) if (plan.expiresAt <= now) plans.delete(id);
    for (const [id, quote] of quotes) if (quote.expiresAt <= now) quotes.delete(id);
    for (const [key, entry] of spent) if (entry.at + IDEMPOTENCY_TTL_MS <= now) spent.delete(key);
  };
  const at = (holder: string, key: string) => `${holder}\u0000${key}`;
  return {
    async savePlan(plan) {
      plans.set(plan.id, plan);
    },
    async takePlan(id, holder, now) {
      sweep(now);
      const plan = plans.get(id);
      if (!plan || plan.holder !== holder) return null;
      plans.delete(id);
      return plan;
    },
    async saveQuote(quote) {
      quotes.set(quote.id, quote);
    },
    async readQuote(id, now) {
      sweep(now);
      const quote = quotes.get(id);
      return quote ? { ...quote } : null;
    },
    async claimQuote(id) {
      const quote = quotes.get(id);
      if (!quote || quote.used) return false;
      quote.used = true;
      return true;
    },
    async releaseQuote(id) {
      const quote = quotes.get(id);
      if (quote) quote.used = false;
    },
    async beginSpend(holder, key, what, now) {
      sweep(now);
      const earlier = spent.get(at(holder, key));
      if (earlier) return { first: false, what: earlier.what, answer: () => earlier.answer };
      let settle: (a: Answer | Error) => void = () => undefined;
      const answer = new Promise<Answer>((resolve, reject) => {
        settle = (a) => (a instanceof Error ? reject(a) : resolve(a));
      });
      answer.catch(() => undefined);
      spent.set(at(holder, key), { what, at: now, answer, settle });
      return { first: true };
    },
    async finishSpend(holder, key, answer) {
      spent.get(at(holder, key))?.settle(answer);
    },
    async forgetSpend(holder, key) {
      const entry = spent.get(at(holder, key));
      spent.delete(at(holder, key));
      entry?.settle(new Error('The earlier call with this idempotency key failed and charged nothing: call again'));
    },
  };
}

/** How often a retry looks again for the answer of a call still running on another instance, and for how long. */
const WAIT_STEP_MS = 200;
const WAIT_LIMIT_MS = 60_000;

export function databaseStores(db: Queryable): McpStores {
  const sweep = (now: number) =>
    db.query(
      `WITH p AS (DELETE FROM mcp_plans WHERE expires_at <= $1), q AS (DELETE FROM mcp_quotes WHERE expires_at <= $1) DELETE FROM mcp_spends WHERE started_at <= $2`,
      [new Date(now).toISOString(), new Date(now - IDEMPOTENCY_TTL_MS).toISOString()],
    );
  return {
    async savePlan(plan) {
      await db.query('INSERT INTO mcp_plans (id, holder, body, expires_at) VALUES ($1, $2, $3, $4)', [plan.id, plan.holder, JSON.stringify(plan), new Date(plan.expiresAt).toISOString()]);
    },
    async takePlan(id, holder, now) {
      await sweep(now);
      const [row] = await db.query<{ body: Plan }>('DELETE FROM mcp_plans WHERE id = $1 AND holder = $2 RETURNING body', [id, holder]);
      return row ? row.body : null;
    },
    async saveQuote(quote) {
      await db.query('INSERT INTO mcp_quotes (id, body, used, expires_at) VALUES ($1, $2, false, $3)', [quote.id, JSON.stringify(quote), new Date(quote.expiresAt).toISOString()]);
    },
    async readQuote(id, now) {
      await sweep(now);
      const [row] = await db.query<{ body: Quote; used: boolean }>('SELECT body, used FROM mcp_quotes WHERE id = $1', [id]);
      return row ? { ...row.body, used: row.used } : null;
    },
    async claimQuote(id) {
      // One statement: of two calls at the same moment, on any instances, one claims it.
      return (await db.query('UPDATE mcp_quotes SET used = true WHERE id = $1 AND NOT used RETURNING id', [id])).length === 1;
    },
    async releaseQuote(id) {
      await db.query('UPDATE mcp_quotes SET used = false WHERE id = $1', [id]);
    },
    async beginSpend(holder, key, what, now) {
      await sweep(now);
      const made = await db.query('INSERT INTO mcp_spends (holder, idempotency_key, what, started_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING holder', [
        holder, key, what, new Date(now).toISOString(),
      ]);
      if (made.length === 1) return { first: true };
      const [earlier] = await db.query<{ what: string }>('SELECT what FROM mcp_spends WHERE holder = $1 AND idempotency_key = $2', [holder, key]);
      if (!earlier) return this.beginSpend(holder, key, what, now);
      return { first: false, what: earlier.what, answer: () => waitForAnswer(db, holder, key) };
    },
    async finishSpend(holder, key, answer) {
      await db.query('UPDATE mcp_spends SET answer = $3 WHERE holder = $1 AND idempotency_key = $2', [holder, key, JSON.stringify(answer)]);
    },
    async forgetSpend(holder, key) {
      await db.query('DELETE FROM mcp_spends WHERE holder = $1 AND idempotency_key = $2', [holder, key]);
    },
  };
}

/** The answer of a call still running (perhaps on another instance), once it has one. */
async function waitForAnswer(db: Queryable, holder: string, key: string): Promise<Answer> {
  for (let waited = 0; waited <= WAIT_LIMIT_MS; waited += WAIT_STEP_MS) {
    const [row] = await db.query<{ answer: Answer | null }>('SELECT answer FROM mcp_spends WHERE holder = $1 AND idempotency_key = $2', [holder, key]);
    if (!row) throw new Error('The earlier call with this idempotency key failed and charged nothing: call again');
    if (row.answer) return row.answer;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  throw new Error('The earlier call with this idempotency key is still running: call again in a moment');
}

/** Who holds a plan or a quote: the key's hash (never the key), or "anonymous". */
export const holderOf = (credential: AgentCredential): string =>
  credential.apiKey ? createHash('sha256').update(credential.apiKey).digest('hex') : 'anonymous';

export const newId = (prefix: string) => `${prefix}_${randomUUID()}`;
