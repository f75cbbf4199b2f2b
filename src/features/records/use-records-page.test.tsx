// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DnsRecord } from '#core/wire/dns.ts';
import { walletSession } from '@/lib/session/wallet-session.ts';
import { setApiKey } from '@/lib/settings/settings-store.ts';
import { ToastProvider } from '@/ui/index.ts';
import { useRecordsPage } from './use-records-page.ts';

const zoneName = 'example.com';
const at = '2026-01-01T00:00:00.000Z';
const stored = (id: string, name: string, type: DnsRecord['type'], rdata: string, metadata: unknown = null): DnsRecord => ({
  id, zoneName, name, type, class: 'IN', ttl: 300, rdata, metadata, createdAt: at, updatedAt: at,
});
const parkingA = () => stored('park-a', '@', 'A', '34.123.0.161', { managed: true, managedBy: 'parking' });

interface Refusal {
  status: number;
  message: string;
  fieldErrors?: Record<string, string[]>;
}

/**
 * The service at the network edge: the records endpoints of the contract over a list it keeps, every request noted,
 * and a refusal set per "METHOD /path" answering with the contract's error body instead.
 */
function serve(initial: DnsRecord[]) {
  const state = { records: [...initial], down: false, nextId: 1 };
  const refusals = new Map<string, Refusal>();
  const requests: Array<{ route: string; body: unknown; headers: Headers }> = [];
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const create = (r: { name: string; type: DnsRecord['type']; rdata: string; ttl: number }) => {
    const record = { ...stored(`new-${state.nextId++}`, r.name, r.type, r.rdata), ttl: r.ttl };
    state.records.push(record);
    return record;
  };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    if (state.down) throw new TypeError('Failed to fetch');
    const route = `${init.method ?? 'GET'} ${new URL(url).pathname.replace(/^.*\/v-next/, '')}`;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ route, body, headers: new Headers(init.headers) });
    const refusal = refusals.get(route);
    if (refusal) {
      const data = refusal.fieldErrors ? { formErrors: [], fieldErrors: refusal.fieldErrors } : undefined;
      return json({ defined: true, code: refusal.status === 422 ? 'INPUT_VALIDATION_FAILED' : 'CONFLICT', status: refusal.status, message: refusal.message, data }, refusal.status);
    }
    switch (route) {
      case 'GET /dns/records':
        return json(state.records);
      case 'POST /dns/records':
        return json(create(body));
      case 'PUT /dns/record': {
        const index = state.records.findIndex((r) => r.id === body.id);
        state.records[index] = { ...state.records[index], name: body.name, type: body.type, rdata: body.rdata, ttl: body.ttl };
        return json(state.records[index]);
      }
      case 'DELETE /dns/record':
        state.records = state.records.filter((r) => r.id !== body.id);
        return json({ success: true });
      case 'POST /dns/records/batch':
        return json(body.records.map(create));
      case 'PUT /dns/park':
        state.records = state.records.filter((r) => !(r.metadata as { managed?: boolean } | null)?.managed);
        return json({ success: true });
      default:
        return json({ defined: true, code: 'NOT_FOUND', status: 404, message: `No ${route} here` }, 404);
    }
  });
  return { state, refusals, requests, sent: (route: string) => requests.filter((r) => r.route === route) };
}

function renderController() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
  return renderHook(() => useRecordsPage('Example.COM'), { wrapper });
}

async function loaded() {
  const hook = renderController();
  await waitFor(() => expect(hook.result.current.records.isSuccess).toBe(true));
  return hook;
}

const rowOf = (hook: Awaited<ReturnType<typeof loaded>>, id: string) => {
  const row = hook.result.current.table.rows.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

beforeEach(() => setApiKey('test-api-key', false));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setApiKey(undefined, false);
  walletSession.setState({ signInPending: false });
  localStorage.clear();
});

describe('useRecordsPage: derived lists', () => {
  it('shows a large zone\'s first screen from its first records by name, then every row, in the same order', async () => {
    const zone = Array.from({ length: 1500 }, (_, i) => stored(`r${i}`, `host-${(i * 7919) % 1500}`, 'A', `10.0.${i >> 8}.${i & 255}`));
    serve(zone);
    const seen: Array<{ settling: boolean; ids: string[]; total: number }> = [];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <ToastProvider>{children}</ToastProvider>
      </QueryClientProvider>
    );
    const hook = renderHook(
      () => {
        const page = useRecordsPage(zoneName);
        if (page.records.isSuccess) seen.push({ settling: page.table.settling, ids: page.table.filtered.map((r) => r.id), total: page.table.total });
        return page;
      },
      { wrapper },
    );
    await waitFor(() => expect(hook.result.current.table.filtered).toHaveLength(1500));
    const first = seen[0];
    const last = seen.at(-1)!;
    expect(first.settling).toBe(true);
    expect(first.total).toBe(1500);
    expect(first.ids.length).toBeLessThan(1500);
    expect(first.ids.length).toBeGreaterThanOrEqual(200);
    expect(last.settling).toBe(false);
    expect(first.ids).toEqual(last.ids.slice(0, first.ids.length));
    expect(hook.result.current.table.typesInZone).toEqual(['A']);
  });

  it('lists the zone, marks the change set on its rows, and filters, sorts and groups the table', async () => {
    serve([stored('www', 'www', 'A', '192.0.2.1'), stored('mx', '@', 'MX', '10 mail.example.com.'), stored('txt', '@', 'TXT', '"v=spf1 -all"')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    expect(page().zoneName).toBe('example.com');
    expect(page().zone.map((r) => r.id)).toEqual(['www', 'mx', 'txt']);
    expect(page().parked).toBe(false);
    expect(page().table.typesInZone).toEqual(['A', 'MX', 'TXT']);

    act(() => page().recordForm.askDelete(rowOf(hook, 'txt')));
    act(() => page().recordForm.draftDelete());
    act(() => page().recordForm.openEdit(rowOf(hook, 'www')));
    await act(() => page().recordForm.submit({ name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 }, 'draft'));
    expect(page().table.rows.map((r) => [r.id, r.pending])).toEqual([['www', 'change'], ['mx', undefined], ['txt', 'remove']]);
    expect(page().changeSet.diff.map((e) => e.kind)).toEqual(['remove', 'change']);
    expect(page().changeSet.plan.batches.map((b) => b.kind)).toEqual(['delete', 'update']);

    act(() => page().table.search('mail'));
    expect(page().table.filtered.map((r) => r.id)).toEqual(['mx']);
    act(() => page().table.clearSearch());
    act(() => page().table.filterType('TXT'));
    expect(page().table.filtered.map((r) => r.id)).toEqual(['txt']);
    act(() => page().table.filterType('all'));
    act(() => page().table.sort('type'));
    expect(page().table.filtered.map((r) => r.type)).toEqual(['A', 'MX', 'TXT']);
    act(() => page().table.sort('type'));
    expect(page().table.view.direction).toBe('desc');
    expect(page().table.filtered.map((r) => r.type)).toEqual(['TXT', 'MX', 'A']);
    act(() => page().table.groupByType(true));
    expect(page().table.items.filter((i) => i.kind === 'group').map((i) => (i.kind === 'group' ? i.type : ''))).toEqual(['A', 'MX', 'TXT']);
  });

  it('knows a parked zone, offers to unpark for an apex address, and checks the form against the zone rules', async () => {
    serve([parkingA(), stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    expect(page().parked).toBe(true);
    act(() => page().recordForm.openAdd());
    const conflict = page().recordForm.parkedConflict;
    expect(conflict?.({ name: '@', type: 'AAAA', rdata: '2001:db8::1', ttl: 300 })).toBe(true);
    expect(conflict?.({ name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 300 })).toBe(false);
    expect(page().recordForm.check({ name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 }, 'sign')?.message).toMatch(/CNAME/);
    // Unparking first checks against the zone without parking's records: the apex address is then fine.
    expect(page().recordForm.check({ name: '@', type: 'A', rdata: '192.0.2.7', ttl: 300 }, 'sign')).not.toBeNull();
    expect(page().recordForm.check({ name: '@', type: 'A', rdata: '192.0.2.7', ttl: 300 }, 'unpark-and-sign')).toBeNull();
  });

  it('knows a forwarded zone is not parked: no unparking offered, the apex addresses are forwarding\'s, in the form and the change set', async () => {
    serve([stored('fwd-a', '@', 'A', '192.0.2.80', { managed: true, managedBy: 'forwarding' }), stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    expect(page().parked).toBe(false);
    expect(page().forwarding).toBe(true);
    act(() => page().recordForm.openAdd());
    expect(page().recordForm.parkedConflict).toBeUndefined();
    const apex = { name: '@', type: 'AAAA' as const, rdata: '2001:db8::1', ttl: 300 };
    expect(page().recordForm.forwardedApex?.(apex)).toBe(true);
    expect(page().recordForm.forwardedApex?.({ name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 300 })).toBe(false);
    // The same rule the service runs: an apex address is refused while forwarding is on.
    expect(page().recordForm.check(apex, 'sign')?.message).toMatch(/forwarded, so its address at the apex is the forwarder's/);
    expect(page().recordForm.check(apex, 'draft')?.message).toMatch(/forwarded/);
    expect(page().recordForm.check({ name: 'api', type: 'A', rdata: '192.0.2.2', ttl: 300 }, 'sign')).toBeNull();
  });
});

describe('useRecordsPage: the record form', () => {
  it('moves between add, edit and change-set modes, and a deletion has no form', async () => {
    serve([stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    expect(page().recordForm.form).toBeNull();
    act(() => page().recordForm.openAdd());
    expect(page().recordForm.form).toMatchObject({ mode: 'add', initial: { type: 'A', name: '@' } });
    act(() => page().recordForm.close());
    expect(page().recordForm.form).toBeNull();

    act(() => page().recordForm.openEdit(rowOf(hook, 'www')));
    expect(page().recordForm.form).toMatchObject({ mode: 'edit', initial: { type: 'A', name: 'www', value: '192.0.2.1' } });
    await act(() => page().recordForm.submit({ name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 }, 'draft'));
    expect(page().recordForm.form).toBeNull();
    expect(await screen.findByText('Added to the change set')).toBeTruthy();

    const [change] = page().changeSet.diff;
    act(() => page().recordForm.openDraftEntry(change));
    expect(page().recordForm.form).toMatchObject({ mode: 'draft-update', initial: { value: '192.0.2.9' } });
    // In the change set already: whatever the button, the edit stays there.
    await act(() => page().recordForm.submit({ name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 300 }, 'sign'));
    expect(page().changeSet.draft.updates.map((u) => u.record.rdata)).toEqual(['192.0.2.10']);

    act(() => page().recordForm.openAdd());
    await act(() => page().recordForm.submit({ name: 'api', type: 'A', rdata: '192.0.2.20', ttl: 300 }, 'draft'));
    const added = page().changeSet.diff.find((e) => e.kind === 'add');
    act(() => page().recordForm.openDraftEntry(added!));
    expect(page().recordForm.form).toMatchObject({ mode: 'draft-create', initial: { name: 'api' } });
    await act(() => page().recordForm.submit({ name: 'api2', type: 'A', rdata: '192.0.2.20', ttl: 300 }, 'draft'));
    expect(page().changeSet.draft.creates.map((c) => c.record.name)).toEqual(['api2']);

    act(() => page().recordForm.askDelete(rowOf(hook, 'www')));
    act(() => page().recordForm.draftDelete());
    const removal = page().changeSet.diff.find((e) => e.kind === 'remove');
    act(() => page().recordForm.openDraftEntry(removal!));
    expect(page().recordForm.form).toBeNull();
  });

  it('signs an edit now: the table shows it and the form closes; a refused one stays in the form with the field error', async () => {
    const service = serve([stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;

    service.refusals.set('PUT /dns/record', { status: 422, message: 'Invalid input', fieldErrors: { rdata: ['192.0.2.300 is not an IPv4 address'] } });
    act(() => page().recordForm.openEdit(rowOf(hook, 'www')));
    let problem = await act(() => page().recordForm.submit({ name: 'www', type: 'A', rdata: '192.0.2.300', ttl: 300 }, 'sign'));
    expect(problem).toEqual({ fieldErrors: { rdata: '192.0.2.300 is not an IPv4 address' } });
    expect(page().recordForm.form).toMatchObject({ mode: 'edit', record: { id: 'www' } });
    await waitFor(() => expect(rowOf(hook, 'www').record.rdata).toBe('192.0.2.1'));
    expect(page().changeSet.hasDraft).toBe(false);

    service.refusals.clear();
    problem = await act(() => page().recordForm.submit({ name: 'www', type: 'A', rdata: '192.0.2.3', ttl: 600 }, 'sign'));
    expect(problem).toBeNull();
    expect(page().recordForm.form).toBeNull();
    expect(rowOf(hook, 'www').record).toMatchObject({ rdata: '192.0.2.3', ttl: 600 });
    expect(await screen.findByText('Record saved')).toBeTruthy();
    const [, sent] = service.sent('PUT /dns/record');
    expect(sent.body).toEqual({ id: 'www', zoneName, name: 'www', type: 'A', rdata: '192.0.2.3', ttl: 600 });
    expect([...sent.headers.values()]).toContain('test-api-key');
  });

  it('unparks then adds; when the record is refused after unparking, the form says parking is off already', async () => {
    const service = serve([parkingA()]);
    const hook = await loaded();
    const page = () => hook.result.current;
    service.refusals.set('POST /dns/records', { status: 409, message: 'The record conflicts with the zone' });
    act(() => page().recordForm.openAdd());
    const problem = await act(() => page().recordForm.submit({ name: '@', type: 'A', rdata: '192.0.2.7', ttl: 300 }, 'unpark-and-sign'));
    expect(service.sent('PUT /dns/park').map((r) => r.body)).toEqual([{ normalizedDomainName: zoneName, enableParking: false, overrideExistingRecords: false }]);
    expect(problem?.formError?.title).toBe('Parking is off now, but the record was not added');
    expect(problem?.formError?.description).toMatch(/Add and sign tries it alone\.$/);
    expect(page().recordForm.form?.mode).toBe('add');

    service.refusals.clear();
    expect(await act(() => page().recordForm.submit({ name: '@', type: 'A', rdata: '192.0.2.7', ttl: 300 }, 'sign'))).toBeNull();
    expect(await screen.findByText('Record added')).toBeTruthy();
    await waitFor(() => expect(page().parked).toBe(false));
  });

  it('signs a deletion now, and keeps a refused one in its dialog with the reason', async () => {
    const service = serve([stored('www', 'www', 'A', '192.0.2.1'), stored('api', 'api', 'A', '192.0.2.2')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    service.refusals.set('DELETE /dns/record', { status: 409, message: 'The zone changed meanwhile' });
    act(() => page().recordForm.askDelete(rowOf(hook, 'www')));
    await act(() => page().recordForm.signDelete());
    expect(page().recordForm.deleting?.row.id).toBe('www');
    expect(page().recordForm.deleting?.problem?.title).toBeTruthy();
    await waitFor(() => expect(page().zone.map((r) => r.id)).toEqual(['www', 'api']));

    service.refusals.clear();
    await act(() => page().recordForm.signDelete());
    expect(page().recordForm.deleting).toBeNull();
    expect(page().zone.map((r) => r.id)).toEqual(['api']);
    expect(await screen.findByText('Record deleted')).toBeTruthy();
  });

  it('signed out, keeps a change in the change set and asks to sign in, signing nothing', async () => {
    setApiKey(undefined, false);
    const service = serve([stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    expect(page().access).toMatchObject({ signedOut: true, apiKeyActs: false });
    act(() => page().recordForm.openEdit(rowOf(hook, 'www')));
    expect(await act(() => page().recordForm.submit({ name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 }, 'sign'))).toBeNull();
    expect(page().recordForm.form).toBeNull();
    expect(page().changeSet.draft.updates.map((u) => u.record.rdata)).toEqual(['192.0.2.9']);
    expect(walletSession.getState().signInPending).toBe(true);
    expect(await screen.findByText('Kept in the change set: sign in to send it')).toBeTruthy();

    walletSession.setState({ signInPending: false });
    act(() => page().recordForm.askDelete(rowOf(hook, 'www')));
    await act(() => page().recordForm.signDelete());
    expect(page().recordForm.deleting).toBeNull();
    expect(walletSession.getState().signInPending).toBe(true);
    expect(await screen.findByText('Sign in to delete records')).toBeTruthy();
    expect(service.requests.filter((r) => r.route !== 'GET /dns/records' && !r.route.includes('eip712'))).toEqual([]);
  });

  it('asks for no signature while the service is away, and keeps the record in the form', async () => {
    const service = serve([stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    service.state.down = true;
    await act(() => page().records.refetch());
    // The records last loaded stay on screen, marked stale; the query's answer reaches the hook on the next tick.
    await waitFor(() => expect(page().access.serviceAway).toBe(true));
    expect(page().records.data).toHaveLength(1);
    act(() => page().recordForm.openAdd());
    const problem = await act(() => page().recordForm.submit({ name: 'api', type: 'A', rdata: '192.0.2.2', ttl: 300 }, 'sign'));
    expect(problem?.formError?.title).toBe('The service cannot be reached');
    expect(page().recordForm.form?.mode).toBe('add');
    expect(service.sent('POST /dns/records')).toEqual([]);
  });
});

describe('useRecordsPage: the change set', () => {
  it('applies a batch all or nothing: a refused one stays whole with the reasons, then lands and empties', async () => {
    const service = serve([stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    act(() => page().zoneFile.show('import'));
    expect(page().zoneFile.open).toBe('import');
    act(() =>
      page().zoneFile.import([
        { name: 'api', type: 'A', rdata: '192.0.2.2', ttl: 300 },
        { name: 'mail', type: 'A', rdata: '192.0.2.3', ttl: 300 },
      ]),
    );
    expect(page().zoneFile.open).toBeNull();
    expect(await screen.findByText('2 records added to the change set')).toBeTruthy();
    expect(page().table.rows).toHaveLength(1);

    service.refusals.set('POST /dns/records/batch', { status: 422, message: 'Invalid input', fieldErrors: { 'records.1.rdata': ['192.0.2.3 is taken'] } });
    act(() => page().changeSet.review());
    expect(page().changeSet.reviewing).toBe(true);
    await act(() => page().changeSet.applyAll());
    expect(page().changeSet.reviewing).toBe(false);
    expect(await screen.findByText('Part of the change set was refused')).toBeTruthy();
    const creates = page().changeSet.draft.creates;
    expect(creates.map((c) => c.record.name)).toEqual(['api', 'mail']);
    expect(creates[0].error).toMatch(/^Not applied: /);
    expect(creates[1].error).toBe('192.0.2.3 is taken');
    await waitFor(() => expect(page().zone.map((r) => r.id)).toEqual(['www']));

    service.refusals.clear();
    await act(() => page().changeSet.applyAll());
    expect(page().changeSet.hasDraft).toBe(false);
    expect(await screen.findByText('Change set applied')).toBeTruthy();
    expect(screen.getByText(/^1 signature; /)).toBeTruthy();
    await waitFor(() => expect(page().zone.map((r) => r.name)).toEqual(['www', 'api', 'mail']));
    expect(service.sent('POST /dns/records/batch')).toHaveLength(2);
  });

  it('a change made to the selection empties it and says why; selecting again forgets the reason', async () => {
    serve([stored('a', 'www', 'A', '192.0.2.1'), stored('b', 'mail', 'A', '192.0.2.2')]);
    const hook = await loaded();
    await waitFor(() => expect(hook.result.current.selection.shown).toBe(2));
    act(() => hook.result.current.selection.selectShown());
    expect(hook.result.current.selection.count).toBe(2);
    expect(hook.result.current.selection.clearedBecause).toBeNull();
    act(() => void hook.result.current.selection.addTag('staging'));
    expect(hook.result.current.selection.count).toBe(0);
    expect(hook.result.current.selection.clearedBecause).toBe('Selection cleared: the tags changed, in the change set to review');
    act(() => hook.result.current.selection.toggle('a'));
    expect(hook.result.current.selection.clearedBecause).toBeNull();
  });

  it('adds a template to the change set, removes an item, and discards the rest', async () => {
    serve([]);
    const hook = await loaded();
    const page = () => hook.result.current;
    act(() => page().templates.show());
    act(() => page().templates.add([{ name: '@', type: 'MX', rdata: '10 mx.example.net.', ttl: 3600 }, { name: '@', type: 'TXT', rdata: '"v=spf1 -all"', ttl: 3600 }]));
    expect(page().templates.open).toBe(false);
    expect(page().changeSet.diff.map((e) => e.kind === 'add' && e.after.type)).toEqual(['MX', 'TXT']);
    act(() => page().changeSet.remove(page().changeSet.diff[0].key));
    expect(page().changeSet.diff.map((e) => e.kind === 'add' && e.after.type)).toEqual(['TXT']);
    act(() => page().changeSet.discard());
    expect(page().changeSet.hasDraft).toBe(false);
  });

  it('signed out, applying closes the review and asks to sign in, sending nothing', async () => {
    setApiKey(undefined, false);
    const service = serve([]);
    const hook = await loaded();
    const page = () => hook.result.current;
    act(() => page().templates.add([{ name: '@', type: 'TXT', rdata: '"hello"', ttl: 3600 }]));
    act(() => page().changeSet.review());
    await act(() => page().changeSet.applyAll());
    expect(page().changeSet.reviewing).toBe(false);
    expect(walletSession.getState().signInPending).toBe(true);
    expect(page().changeSet.draft.creates).toHaveLength(1);
    expect(service.sent('POST /dns/records/batch')).toEqual([]);
  });
});

describe('useRecordsPage: shortcuts', () => {
  it('/ focuses the search and n opens the add form, but not while typing, with a modifier, or over a dialog', async () => {
    serve([stored('www', 'www', 'A', '192.0.2.1')]);
    const hook = await loaded();
    const page = () => hook.result.current;
    const search = document.createElement('input');
    document.body.append(search);
    page().table.searchRef.current = search;

    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(search);
    fireEvent.keyDown(search, { key: 'n' });
    expect(page().recordForm.form).toBeNull();
    search.blur();
    fireEvent.keyDown(document.body, { key: 'n', ctrlKey: true });
    expect(page().recordForm.form).toBeNull();
    fireEvent.keyDown(document.body, { key: 'n' });
    expect(page().recordForm.form?.mode).toBe('add');

    act(() => page().recordForm.openEdit(rowOf(hook, 'www')));
    fireEvent.keyDown(document.body, { key: 'n' });
    expect(page().recordForm.form?.mode).toBe('edit');
    act(() => page().recordForm.close());
    act(() => page().zoneFile.show('export'));
    expect(page().zoneFile.exported).toContain('192.0.2.1');
    fireEvent.keyDown(document.body, { key: 'n' });
    expect(page().recordForm.form).toBeNull();
    search.remove();
  });
});
