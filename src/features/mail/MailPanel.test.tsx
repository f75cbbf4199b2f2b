// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { MailFinding } from '@/core/wire/mail.ts';
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

  it('against a service without the check (production): says so, no error', async () => {
    serve('production');
    renderWithQueries(<MailPanel domain="panel.com" onChangeSet={() => undefined} />);
    expect(await screen.findByText('No mail check here')).toBeTruthy();
  });
});
