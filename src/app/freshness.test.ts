import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// TanStack Query runs no refetch interval where there is no window (a server render), and the zone watcher's poll is
// one: its core is loaded once as a browser's would be, then the window is gone again for everything else.
await vi.hoisted(async () => {
  const scope = globalThis as { window?: object };
  scope.window = { addEventListener: () => undefined, removeEventListener: () => undefined };
  await import('@tanstack/react-query');
  delete scope.window;
});
import { InfiniteQueryObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { allOperations, zoneChangingOperations, type OperationId } from '#core/operations/index.ts';
import { callOperation } from '@/lib/api/client.ts';
import type { Api } from '@/lib/api/use-api.ts';
import { refreshAfterWrite } from '@/lib/freshness/refresh.ts';
import { watchZone } from '@/lib/freshness/zone-watch.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { zoneVersionKey } from '@/lib/query-keys.ts';
import { sharedDomainsQuery } from '@/lib/signing/grant-guard.ts';
import { zoneGrantsQuery } from '@/features/access/index.ts';
import { autoRenewQuery } from '@/features/auto-renew/index.ts';
import { balanceQuery } from '@/features/balance/index.ts';
import { dnssecQuery } from '@/features/dnssec/index.ts';
import { userDomainsQueryOptions } from '@/features/domains/index.ts';
import { forwardingQuery } from '@/features/forwarding/index.ts';
import { zoneHistoryQuery } from '@/features/history/index.ts';
import { mailCheckQuery } from '@/features/mail/index.ts';
import { refreshAfterOrder, userOrdersQuery } from '@/features/orders/index.ts';
import { apexDnsQuery } from '@/features/overview/index.ts';
import { recordsQueryOptions } from '@/features/records/index.ts';
import { renewalQuoteQuery } from '@/features/renew/index.ts';
import { availabilityQuery } from '@/features/search/index.ts';
import { apiKeysQuery } from '@/features/settings/index.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

/**
 * The dashboard's refresh rule, generated from the operation table: for every write the dashboard can make, the views
 * of the domain page and the account (each mounted with the very query options its component uses, on the
 * dashboard's own QueryClient) are compared, after the write succeeded, with the same views read afresh (a reload).
 * Any difference is a view showing what is no longer true. Each case must change at least one view, so the test
 * fails for an operation whose refresh rule is removed. Then the same writes made outside the page (another client of
 * the service) show through the zone watcher's poll.
 */

const [OWNER, OTHER, HELPER] = TEST_KEYS;
const owner = addressOf(OWNER);
const inAWeek = () => Math.floor(Date.now() / 1000) + 7 * 86400;
let service: TestService;
let client: TestClient;
let api: Api;
let headers: Record<string, string>;
let count = 0;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  headers = client.withToken(await client.signIn(OWNER));
  api = { call: (id, args) => callOperation(id, args, { baseUrl: service.baseUrl, headers }) };
  // Credit for the orders below.
  for (let i = 0; i < 3; i++) await client.call('requestFaucet', { body: { walletAddress: owner }, headers });
});
afterAll(() => service.destroy());

async function mintedDomain(): Promise<string> {
  const name = `fresh${++count}.com`;
  await service.services.ownership.mint({ name, to: owner, chainId: 31337, years: 1, now: new Date() });
  return name;
}

/** A view: the query options its component mounts; the ones that read with the page's credential call `api` here. */
/** `shows`: what of its answer the view shows, when the answer holds more that moves by itself (a time of now). */
type View = { name: string; options: { queryKey: readonly unknown[]; queryFn?: unknown }; infinite?: boolean; shows?: (data: never) => unknown };

function viewsOf(domain: string): View[] {
  const read = (id: OperationId, query: Record<string, unknown>) => () => api.call(id, { query });
  return [
    { name: 'Records tab, parking panel, overview, mail, ENS', options: recordsQueryOptions(api, domain) },
    { name: 'Forwarding tab and overview', options: forwardingQuery(api, domain) },
    { name: 'DNSSEC tab and overview', options: dnssecQuery(api, domain, true) },
    { name: 'Renewal tab and overview (auto-renew)', options: autoRenewQuery(api, domain) },
    { name: 'Overview: holder and expiry', options: renewalQuoteQuery(api, domain), shows: (q: { ownerAddress: string; expiresAt: string }) => [q.ownerAddress, q.expiresAt] },
    { name: 'Checkout: availability', options: availabilityQuery(api, domain) },
    { name: 'History tab', options: zoneHistoryQuery(api, domain, owner, true), infinite: true },
    { name: 'Access tab', options: { ...zoneGrantsQuery(domain), queryFn: read('listZoneAccess', { zoneName: domain }) } },
    { name: 'Overview: Domain answers', options: apexDnsQuery(`${service.origin}/dns-query`, domain, '') },
    { name: 'Mail tab', options: mailCheckQuery(api, domain) },
    { name: 'My domains', options: userDomainsQueryOptions(api, owner) },
    { name: 'Shared with you', options: { ...sharedDomainsQuery(owner), queryFn: read('getSharedDomains', {}) } },
    { name: 'Balance badge', options: balanceQuery(api, owner, true) },
    { name: 'Orders page', options: userOrdersQuery(api, owner, true) },
    { name: 'Settings: API keys', options: { ...apiKeysQuery(owner), queryFn: read('listApiKeys', {}) } },
  ];
}

/** The page: every view mounted (an observer each, as a component holds) on the dashboard's QueryClient, loaded. */
async function mountPage(views: View[]): Promise<{ page: QueryClient; unmount: () => void }> {
  const page = createQueryClient();
  // The dashboard's own cache, its retries only quicker (a name not registered yet answers 404 to most views).
  page.setDefaultOptions({ queries: { ...page.getDefaultOptions().queries, retryDelay: 10 } });
  const stops = views.map((view) => {
    const observer = view.infinite ? new InfiniteQueryObserver(page, view.options as never) : new QueryObserver(page, view.options as never);
    return observer.subscribe(() => undefined);
  });
  await vi.waitFor(() => expect(views.filter((v) => page.getQueryState(v.options.queryKey)?.status === 'pending').map((v) => v.name)).toEqual([]), { timeout: 10_000, interval: 20 });
  return { page, unmount: () => stops.forEach((stop) => stop()) };
}

/** An answer as a view shows it: its data, or the error it says (a name not registered yet has no records). */
const asShown = (state: { data?: unknown; error?: unknown; status?: string } | undefined) => (state?.status === 'error' ? { error: (state.error as Error).message } : state?.data);

/** What each view shows after a reload: the same options on an empty cache. */
async function reloaded(views: View[]): Promise<unknown[]> {
  const fresh = new QueryClient({ defaultOptions: { queries: { retry: false, retryDelay: 10 } } });
  return Promise.all(
    views.map((v) =>
      (v.infinite ? fresh.fetchInfiniteQuery(v.options as never) : fresh.fetchQuery(v.options as never)).then(
        (data: unknown) => data,
        (error: unknown) => asShown({ status: 'error', error }),
      ),
    ),
  );
}

const shown = (page: QueryClient, views: View[]) => views.map((v) => asShown(page.getQueryState(v.options.queryKey)));
const seen = (view: View, data: unknown) => JSON.stringify(data !== undefined && view.shows ? view.shows(data as never) : data);
const differing = (views: View[], a: unknown[], b: unknown[]) => views.filter((v, i) => seen(v, a[i]) !== seen(v, b[i])).map((v) => v.name);

/** One write the dashboard makes: its request (prepared on a fresh domain) and how it is sent. */
interface Case {
  /** The domain the page shows; a name not registered yet for a registration. */
  domain?: () => Promise<string>;
  prepare?: (domain: string) => Promise<Record<string, unknown>>;
  request: (domain: string, prepared: Record<string, unknown>) => Record<string, unknown>;
  /** How it reaches the service: signed by the owner (the default), or with the session (SIWE operations). */
  send?: 'session';
  /** It orders: the rest of what it changes changes when its order finishes, which the order watcher follows. */
  orders?: true;
  params?: (prepared: Record<string, unknown>) => Record<string, string>;
}

async function send(id: OperationId, c: Case, request: Record<string, unknown>, prepared: Record<string, unknown>): Promise<unknown> {
  const reply = c.send === 'session' ? await client.call(id, { body: request, params: c.params?.(prepared), headers }) : await client.signed(OWNER, id, request);
  expect(reply.status, `${id}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

/** Waits for an order to finish, as the order watcher does, and then does what it does (refreshAfterOrder). */
async function orderFinished(page: QueryClient, orderId: string, domain: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId }, headers });
      expect(['SUCCEEDED', 'FAILED', 'PARTIALLY_COMPLETED']).toContain(reply.body?.order?.status);
    },
    { timeout: 10_000, interval: 25 },
  );
  await refreshAfterOrder(page, [domain]);
}

const recordIn = async (zoneName: string, name = 'kept') => {
  const made = await client.signed(OWNER, 'createDnsRecord', { zoneName, name, type: 'A', rdata: '192.0.2.9', ttl: 300 });
  return made.body.id as string;
};
const unparked = async (normalizedDomainName: string) => {
  await client.signed(OWNER, 'toggleDomainParking', { normalizedDomainName, enableParking: false, overrideExistingRecords: false });
  return {};
};
const unregistered = async () => `fresh-new${++count}.com`;

/** Every write the dashboard can make, by operation id; the table's writes without a case fail the first test. */
const cases: Partial<Record<OperationId, Case>> = {
  createDnsRecord: { request: (zoneName) => ({ zoneName, name: '@', type: 'A', rdata: '192.0.2.1', ttl: 300 }), prepare: unparked },
  updateDnsRecord: { prepare: async (z) => ({ id: await recordIn(z) }), request: (zoneName, { id }) => ({ id, zoneName, name: 'kept', type: 'A', rdata: '192.0.2.2', ttl: 300 }) },
  deleteDnsRecord: { prepare: async (z) => ({ id: await recordIn(z) }), request: (zoneName, { id }) => ({ id, zoneName }) },
  batchCreateDnsRecords: { request: (zoneName) => ({ zoneName, records: [{ name: 'a', type: 'A', rdata: '192.0.2.3', ttl: 300 }, { name: '@', type: 'TXT', rdata: '"v=spf1 -all"', ttl: 300 }] }) },
  batchUpdateDnsRecords: { prepare: async (z) => ({ id: await recordIn(z) }), request: (zoneName, { id }) => ({ zoneName, records: [{ id, name: 'kept', rdata: '192.0.2.5', ttl: 600 }] }) },
  batchDeleteDnsRecords: { prepare: async (z) => ({ id: await recordIn(z) }), request: (zoneName, { id }) => ({ zoneName, recordsIds: [id] }) },
  applyDnsChanges: {
    prepare: async (z) => ({ id: await recordIn(z), other: await recordIn(z, 'other') }),
    request: (zoneName, { id, other }) => ({ zoneName, creates: [{ name: 'mixed', type: 'TXT', rdata: 'made', ttl: 300 }], updates: [{ id, name: 'kept', type: 'AAAA', rdata: '2001:db8::5', ttl: 600 }], deletes: [other] }),
  },
  parkDomain: { prepare: unparked, request: (normalizedDomainName) => ({ normalizedDomainName, overrideExistingRecords: true }) },
  toggleDomainParking: { request: (normalizedDomainName) => ({ normalizedDomainName, enableParking: false, overrideExistingRecords: false }) },
  toggleDnssec: { request: (normalizedDomainName) => ({ normalizedDomainName, enabled: true }) },
  setForwarding: { request: (normalizedDomainName) => ({ normalizedDomainName, enabled: true, targetUrl: 'https://example.net/', statusCode: 301, keepPath: true }) },
  setAutoRenew: { request: (normalizedDomainName) => ({ normalizedDomainName, enabled: true, durationInYears: 2 }) },
  grantZoneAccess: { request: (zoneName) => ({ zoneName, grantee: addressOf(HELPER), role: 'editor', names: ['www'], types: ['A'], expiresAt: inAWeek() }) },
  revokeZoneAccess: {
    prepare: async (zoneName) => ({ grantId: (await client.signed(OWNER, 'grantZoneAccess', { zoneName, grantee: addressOf(OTHER), role: 'viewer', names: [], types: [], expiresAt: inAWeek() })).body.id }),
    request: (zoneName, { grantId }) => ({ zoneName, grantId }),
  },
  registerDomain: { domain: unregistered, orders: true, request: (normalizedDomainName) => ({ normalizedDomainName, durationInYears: 1 }) },
  registerWithRecords: { domain: unregistered, orders: true, request: (normalizedDomainName) => ({ normalizedDomainName, durationInYears: 1, records: [{ name: '@', type: 'A', rdata: '192.0.2.10', ttl: 300 }] }) },
  renewDomain: { orders: true, request: (normalizedDomainName) => ({ normalizedDomainName, durationInYears: 1 }) },
  requestFaucet: { send: 'session', request: () => ({ walletAddress: owner }) },
  createApiKey: { send: 'session', request: () => ({ label: 'fresh' }) },
  revokeApiKey: {
    send: 'session',
    prepare: async () => ({ id: (await client.call('createApiKey', { body: { label: 'to revoke' }, headers })).body.id }),
    params: ({ id }) => ({ id: String(id) }),
    request: () => ({}),
  },
};

/** Writes of the table this test does not make, and why (each is tested where it runs). */
const NOT_HERE: Partial<Record<OperationId, string>> = {
  verifySiwe: 'a sign-in changes whose data the service answers with (every account view), not the data: siwe-adapter',
  registerDomainX402: 'paid over the x402 rail with a token on a chain: the checkout journey',
};

const writes = allOperations().filter((op) => op.method !== 'GET' || op.changes !== undefined);

/** One open page of a domain: its views mounted once; each case's preparation made outside it, then read again. */
interface OpenPage {
  domain: string;
  views: View[];
  page: QueryClient;
  unmount: () => void;
}
async function openPage(domain: string): Promise<OpenPage> {
  const views = viewsOf(domain);
  return { domain, views, ...(await mountPage(views)) };
}

describe('after a write of this page, every mounted view shows the new state without a reload', () => {
  it('every write of the operation table has a case here (or a reason it is tested elsewhere)', () => {
    expect(writes.map((op) => op.id).filter((id) => !cases[id] && !NOT_HERE[id])).toEqual([]);
  });

  // The writes of a registered domain run one after the other on one open page of it; a registration on its own.
  let shared: OpenPage | undefined;
  afterAll(() => shared?.unmount());

  for (const op of writes.filter((o) => cases[o.id])) {
    it(op.id, async () => {
      const c = cases[op.id]!;
      const own = c.domain ? await openPage(await c.domain()) : undefined;
      const open = own ?? (shared ??= await openPage(await mintedDomain()));
      const { domain, views, page } = open;
      try {
        const prepared = (await c.prepare?.(domain)) ?? {};
        // The page as it is now: only the write below may leave a view behind.
        await page.refetchQueries();
        const before = shown(page, views);
        const answer = await send(op.id, c, c.request(domain, prepared), prepared);
        // What useSignedCall and useApi do once the service accepted a write.
        await refreshAfterWrite(page, op.id, { ...c.request(domain, prepared), ...c.params?.(prepared) });
        if (c.orders) await orderFinished(page, (answer as { id: string }).id, domain);
        const fresh = await reloaded(views);
        expect(differing(views, shown(page, views), fresh), `${op.id}: views still showing the old state`).toEqual([]);
        // The write changed something shown: without its refresh rule these views would be stale, and the line above fail.
        expect(differing(views, before, fresh), `${op.id} changes no view`).not.toEqual([]);
      } finally {
        own?.unmount();
      }
    });
  }
});

describe('a change of the zone made elsewhere (another tab, a grantee, an API key) shows within the zone watcher poll', () => {
  const direct = zoneChangingOperations().filter((op) => op.zone.change === 'content' && op.zone.when !== 'order');
  let open: OpenPage;
  let stop: () => void;
  beforeAll(async () => {
    open = await openPage(await mintedDomain());
    stop = watchZone(open.page, open.domain, { dohUrl: `${service.origin}/dns-query`, pollMs: 100 });
    await vi.waitFor(() => expect(open.page.getQueryData(zoneVersionKey(open.domain))).toBeTypeOf('number'), { timeout: 10_000, interval: 20 });
  });
  afterAll(() => {
    stop();
    open.unmount();
  });

  for (const op of direct) {
    it(op.id, async () => {
      const c = cases[op.id]!;
      const { domain, views, page } = open;
      const prepared = (await c.prepare?.(domain)) ?? {};
      const before = await reloaded(views);
      // Another client of the service: nothing on this page knows of the write.
      await send(op.id, c, c.request(domain, prepared), prepared);
      const fresh = await reloaded(views);
      expect(differing(views, before, fresh), `${op.id} changes no view`).not.toEqual([]);
      await vi.waitFor(() => expect(differing(views, shown(page, views), fresh), JSON.stringify(page.getQueryData(zoneVersionKey(domain)))).toEqual([]), { timeout: 10_000, interval: 50 });
    });
  }
});
