// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { MailFinding } from '#core/wire/mail.ts';
import { json, renderWithQueries } from '../../../test/dashboard/service-edge.tsx';
import MailPanel from './MailPanel.tsx';

const FINDINGS: MailFinding[] = [
  { id: 'spf-ok', severity: 'ok', record: 'v=spf1 mx -all', message: 'One SPF record, well formed, 1 of 10 DNS lookups.' },
  { id: 'dmarc-missing', severity: 'error', message: 'There is no DMARC record at _dmarc.', fix: { name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none; rua=mailto:dmarc@panel.com"' } },
];

function serve(answer: 'findings' | 'production') {
  const fetchMock = vi.fn(async (url: string) => {
    const { pathname } = new URL(url);
    if (pathname.endsWith('/dns/mail-check')) return answer === 'findings' ? json({ findings: FINDINGS }) : new Response('Not Found', { status: 404 });
    if (pathname.endsWith('/dns/records')) return json([]);
    throw new Error(`unexpected request ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

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
  localStorage.clear();
});

describe('Mail panel', () => {
  it('shows each finding under its topic with why it matters, and puts a fix into the change set', async () => {
    serve('findings');
    const onChangeSet = vi.fn();
    renderWithQueries(<MailPanel domain="panel.com" onChangeSet={onChangeSet} />);
    expect(await screen.findByText('There is no DMARC record at _dmarc.')).toBeTruthy();
    expect(screen.getByText(/likely to be refused or land in spam/)).toBeTruthy();
    expect(screen.getByText(/Tells receivers what to do with mail that fails SPF and DKIM/)).toBeTruthy();
    expect(screen.getByText('Fix: TXT at _dmarc.panel.com: v=DMARC1; p=none; rua=mailto:dmarc@panel.com')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Put the TXT record at _dmarc.panel.com in the change set' });
    await vi.waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    expect(onChangeSet).toHaveBeenCalledOnce();
    const stored = JSON.parse(localStorage.getItem('namefi.records.draft.v1:anonymous:panel.com') ?? 'null');
    expect(JSON.stringify(stored)).toContain('v=DMARC1; p=none; rua=mailto:dmarc@panel.com');
  });

  it('the wizard builds a provider\u2019s records, says each field\u2019s problem, and puts the set into the change set at once', async () => {
    serve('findings');
    const onChangeSet = vi.fn();
    renderWithQueries(<MailPanel domain="panel.com" onChangeSet={onChangeSet} />);
    const open = await screen.findByRole('button', { name: 'Set up mail for a provider' });
    await vi.waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(open);
    // Google needs the DKIM key: building without it names the field.
    fireEvent.click(screen.getByRole('button', { name: 'Build the records' }));
    expect(await screen.findByText(/Paste the DKIM key the provider shows/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Mail provider'), { target: { value: 'fastmail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Build the records' }));
    expect(await screen.findByText(/9 records for Fastmail/)).toBeTruthy();
    expect(screen.getByLabelText('MTA-STS policy file').textContent).toContain('mx: in1-smtp.messagingengine.com');
    fireEvent.click(screen.getByRole('button', { name: 'Put them in the change set' }));
    expect(onChangeSet).toHaveBeenCalledOnce();
    const stored = JSON.stringify(JSON.parse(localStorage.getItem('namefi.records.draft.v1:anonymous:panel.com') ?? 'null'));
    for (const part of ['in1-smtp.messagingengine.com.', 'include:spf.messagingengine.com', 'fm3.panel.com.dkim.fmhosted.com.', 'v=DMARC1; p=none', 'v=TLSRPTv1', 'v=STSv1']) expect(stored).toContain(part);
  });

  it('against a service without the check (production): says so, no error', async () => {
    serve('production');
    renderWithQueries(<MailPanel domain="panel.com" onChangeSet={() => undefined} />);
    expect(await screen.findByText('No mail check here')).toBeTruthy();
  });
});
