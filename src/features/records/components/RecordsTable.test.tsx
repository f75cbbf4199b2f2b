// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DnsRecord } from '#core/wire/dns.ts';
import { DEFAULT_VIEW, listItems, sortRows, toRow } from '../model/table.ts';
import { RecordsTable } from './RecordsTable.tsx';

afterEach(cleanup);

// jsdom has no layout: give the scroll container the size a browser would (the rest stays 0).
beforeAll(() => {
  for (const [prop, size] of [['clientHeight', 640], ['clientWidth', 1024]] as const) {
    Object.defineProperty(HTMLElement.prototype, prop, {
      configurable: true,
      get(this: HTMLElement) {
        return this.dataset.testid === 'records-scroll' ? size : 0;
      },
    });
  }
});

const at = '2026-01-01T00:00:00.000Z';
function zone(n: number): DnsRecord[] {
  const records: DnsRecord[] = Array.from({ length: n }, (_, i) => ({
    id: `r${i}`, zoneName: 'example.com', name: `host-${i}`, type: 'A', class: 'IN', ttl: 300, rdata: `10.0.${i >> 8}.${i & 255}`, metadata: null, createdAt: at, updatedAt: at,
  }));
  records.push({ id: 'p', zoneName: 'example.com', name: '@', type: 'A', class: 'IN', ttl: 60, rdata: '34.123.0.161', metadata: { managed: true, managedBy: 'parking' }, createdAt: at, updatedAt: at });
  return records;
}

function renderTable(records: DnsRecord[], handlers: { onEdit?: () => void; onDelete?: () => void; onSort: () => void } = { onEdit: vi.fn(), onDelete: vi.fn(), onSort: vi.fn() }) {
  const rows = sortRows(records.map((r) => toRow(r, 'example.com')), 'name', 'asc');
  render(<RecordsTable items={listItems(rows, false)} total={rows.length} view={DEFAULT_VIEW} {...handlers} />);
  return handlers;
}

describe('RecordsTable', () => {
  it('offers a reader without write access (a viewer) no Edit or Delete, only the record and its History', () => {
    const rows = sortRows(zone(3).map((r) => toRow(r, 'example.com')), 'name', 'asc');
    render(<RecordsTable items={listItems(rows, false)} total={rows.length} view={DEFAULT_VIEW} onSort={vi.fn()} onHistory={vi.fn()} />);
    expect(screen.getByText('host-0')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
    expect(screen.getByRole('button', { name: 'History of A record host-0' })).toBeTruthy();
  });

  it('renders a window of a 10,000-record zone, not every row', () => {
    renderTable(zone(10_000));
    const rendered = screen.getAllByRole('row').length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(80);
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('10002');
  });

  it('shows the rows at the scroll position, from arithmetic on one row height', () => {
    renderTable(zone(100_000));
    const box = screen.getByTestId('records-scroll');
    act(() => {
      box.scrollTop = 44 * 50_000;
      box.dispatchEvent(new Event('scroll'));
    });
    const names = screen.getAllByRole('row').map((row) => row.getAttribute('data-record-id')).filter(Boolean);
    expect(names.length).toBeLessThan(80);
    // Sorted by name, row 50,000 is some host-…; the ones in view sit around it, none from the top of the list.
    const sorted = sortRows(zone(100_000).map((r) => toRow(r, 'example.com')), 'name', 'asc');
    expect(names).toContain(sorted[50_000].id);
    expect(names).not.toContain(sorted[0].id);
  });

  it('has column headers with sort state, labelled row actions, and read-only managed rows', async () => {
    const handlers = renderTable(zone(3));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    const managed = screen.getByRole('row', { name: /34\.123\.0\.161/ });
    // A managed row can only be checked against DNS, never edited or deleted.
    expect(within(managed).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([expect.stringMatching(/^Is the A record @ live\?$/)]);
    expect(managed.textContent).toContain('read-only');
    expect(within(managed).getByText(/Managed by parking/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit A record host-1' }));
    expect(handlers.onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: 'r1' }));
    await user.click(screen.getByRole('button', { name: 'Delete A record host-2' }));
    expect(handlers.onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 'r2' }));
    await user.click(screen.getByRole('button', { name: 'TTL' }));
    expect(handlers.onSort).toHaveBeenCalledWith('ttl');
    expect(screen.getByRole('cell', { name: 'host-1' }).getAttribute('title')).toBe('host-1.example.com');
  });
});

describe("a signed zone's key records", () => {
  it('are listed read-only under DNSSEC, with neither Edit, Delete nor a live check', () => {
    const signed: DnsRecord[] = [
      ...zone(1),
      ...(['DNSKEY', 'CDNSKEY'] as const).map((type) => ({ id: type, zoneName: 'example.com', name: '@', type, class: 'IN', ttl: 3600, rdata: '257 3 13 AAAA', metadata: { managed: true, managedBy: 'dnssec' }, createdAt: at, updatedAt: at })),
      { id: 'CDS', zoneName: 'example.com', name: '@', type: 'CDS', class: 'IN', ttl: 3600, rdata: '12345 13 2 ABCDEF', metadata: { managed: true, managedBy: 'dnssec' }, createdAt: at, updatedAt: at },
    ];
    renderTable(signed);
    for (const type of ['DNSKEY', 'CDNSKEY', 'CDS']) {
      const row = screen.getAllByRole('row').find((r) => r.getAttribute('data-record-id') === type)!;
      expect(within(row).queryAllByRole('button')).toEqual([]);
      expect(within(row).getByText(/Managed by DNSSEC/)).toBeTruthy();
      expect(row.textContent).toContain('read-only');
    }
  });
});
