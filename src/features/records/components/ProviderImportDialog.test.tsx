// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { ZoneScan } from '#core/operations/records.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { json, renderWithQueries } from '../../../../test/dashboard/service-edge.tsx';
import { ProviderImportDialog } from './ProviderImportDialog.tsx';

// jsdom has <dialog> but not its modal methods: open it as a browser would.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SCAN: ZoneScan = {
  method: 'probe',
  records: [
    { name: '@', type: 'MX', rdata: '10 mail.moving.com.', ttl: 3600 },
    { name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 300 },
  ],
  queried: 121,
  notes: ['ns1.old.net refused a zone transfer (REFUSED), so the names people use were asked one by one.', 'A probe cannot guess other names.'],
};
const STORED = { id: 'r1', zoneName: 'moving.com', name: 'www', type: 'A', rdata: '192.0.2.10', ttl: 300, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' } as DnsRecord;

function serve() {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const { pathname, searchParams } = new URL(url);
      if (!pathname.endsWith('/dns/scan')) throw new Error(`unexpected request ${url}`);
      asked.push(searchParams.get('nameserver') ?? '(none)');
      if (searchParams.get('nameserver') === '127.0.0.1') {
        const message = '127.0.0.1 is a loopback, private or link-local address: the service does not scan its own network.';
        return new Response(JSON.stringify({ defined: true, code: 'BAD_REQUEST', status: 400, message, data: { formErrors: [], fieldErrors: { nameserver: [message] }, rule: 'SCAN_PRIVATE_ADDRESS' } }), { status: 400, headers: { 'content-type': 'application/json' } });
      }
      return json(SCAN);
    }),
  );
  return asked;
}

describe('Import from your current provider', () => {
  it('shows a refusal at the name server field, then what the scan found and could not find, and adds only what is new', async () => {
    const asked = serve();
    const onImport = vi.fn();
    renderWithQueries(<ProviderImportDialog zoneName="moving.com" zone={[STORED]} parked={false} onImport={onImport} onClose={() => undefined} />);
    const field = screen.getByLabelText('Current name server (optional)');
    fireEvent.change(field, { target: { value: '127.0.0.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Scan' }));
    expect(await screen.findByText(/does not scan its own network/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(field, { target: { value: 'ns1.old.net' } });
    fireEvent.click(screen.getByRole('button', { name: 'Scan' }));
    expect(await screen.findByText(/Found 2 records by asking the names people use .* with 121 DNS queries\. 1 is already here/)).toBeTruthy();
    expect(screen.getByText(/refused a zone transfer/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add 1 to change set' }));
    expect(onImport).toHaveBeenCalledWith([{ name: '@', type: 'MX', rdata: '10 mail.moving.com.', ttl: 3600 }]);
    expect(asked).toEqual(['127.0.0.1', 'ns1.old.net']);
  });
});
