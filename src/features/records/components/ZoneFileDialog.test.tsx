// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ZoneFileDialog } from './ZoneFileDialog.tsx';

afterEach(cleanup);

// jsdom has <dialog> but not its modal methods: open it as a browser would.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const noop = () => undefined;

describe('a large zone file', () => {
  it('is read with a progress bar, then says how its batches are signed and that each is all or nothing', async () => {
    const lines = ['$ORIGIN example.com.', '$TTL 300', ...Array.from({ length: 4500 }, (_, i) => `host-${i} IN A 10.0.${i >> 8}.${i & 255}`)];
    let imported = 0;
    render(<ZoneFileDialog open zoneName="example.com" zone={[]} exported="" initialTab="import" onImport={(records) => (imported = records.length)} onClose={noop} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Paste a zone file' }), { target: { value: lines.join('\n') } });
    fireEvent.click(screen.getByRole('button', { name: 'Read zone file' }));

    const bar = await screen.findByRole('progressbar', { name: 'Reading the zone file' });
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    expect(Number(bar.getAttribute('aria-valuemax'))).toBe(4502);

    expect(await screen.findByText(/4500 new records to add/)).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(/5 batches of at most 1,000 records, one signature each/).textContent).toMatch(/Each batch is all or nothing/);
    fireEvent.click(screen.getByRole('button', { name: 'Add 4500 to change set' }));
    expect(imported).toBe(4500);
  });

  it('reads a chosen file without putting it in the text box, and lists at most 100 of its bad lines', async () => {
    const lines = ['$ORIGIN example.com.', '$TTL 300', 'www IN A 192.0.2.1', ...Array.from({ length: 250 }, (_, i) => `bad-${i} IN A 300.0.0.${i}`)];
    render(<ZoneFileDialog open zoneName="example.com" zone={[]} exported="" initialTab="import" onImport={noop} onClose={noop} />);
    const file = new File([lines.join('\n')], 'example.com.zone', { type: 'text/plain' });
    fireEvent.change(screen.getByLabelText('Or choose a file'), { target: { files: [file] } });
    expect(await screen.findByText(/read from the file and not shown above/)).toBeTruthy();
    expect(screen.getByText('example.com.zone')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Paste a zone file' }) as HTMLTextAreaElement).value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Read zone file' }));
    expect(await screen.findByText(/1 new record to add, 250 lines not understood/)).toBeTruthy();
    const notice = screen.getByText('Lines that could not be read').closest('[role]') ?? document.body;
    expect(notice.querySelectorAll('li')).toHaveLength(100);
    expect(screen.getByText('…and 150 more, not listed.')).toBeTruthy();

    // Pasting replaces the chosen file.
    fireEvent.change(screen.getByRole('textbox', { name: 'Paste a zone file' }), { target: { value: 'api 300 IN A 192.0.2.7' } });
    expect(screen.queryByText(/read from the file/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Read zone file' }));
    expect(await screen.findByText(/^1 new record to add\.$/)).toBeTruthy();
  });

  it('shows how far the export is while it is written', () => {
    render(<ZoneFileDialog open zoneName="example.com" zone={[]} exported={undefined} exportProgress={{ written: 5000, total: 100000 }} initialTab="export" onImport={noop} onClose={noop} />);
    const bar = screen.getByRole('progressbar', { name: 'Writing the zone file' });
    expect(bar.getAttribute('aria-valuenow')).toBe('5000');
    expect(bar.getAttribute('aria-valuetext')).toBe('5,000 of 100,000 records');
  });
});
