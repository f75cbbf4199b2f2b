// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { json, renderWithQueries, typesForMethodAnswer } from '../../../test/dashboard/service-edge.tsx';
import ForwardingPanel from './ForwardingPanel.tsx';

/** The service at the network edge: production (no forwarding) or this project's (forwarding off for the domain). */
function serve(kind: 'production' | 'ours') {
  const fetchMock = vi.fn(async (url: string) => {
    const { pathname } = new URL(url);
    if (pathname.endsWith('/eip712/types-for-method')) return json(typesForMethodAnswer('setForwarding', kind !== 'production'));
    if (pathname.endsWith('/eip712/domain')) return json({ name: 'Namefi Local', version: '1' });
    if (pathname.endsWith('/domain-config/forwarding')) return json({ normalizedDomainName: 'spare.com', enabled: false, targetUrl: '', statusCode: 301, keepPath: true });
    if (pathname.endsWith('/dns/records')) return json([]);
    throw new Error(`unexpected request ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const renderPanel = () => renderWithQueries(<ForwardingPanel domain="spare.com" />);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ForwardingPanel', () => {
  it('against production says forwarding needs this project\u2019s service, without an error or a forwarding request', async () => {
    const fetchMock = serve('production');
    renderPanel();
    expect(await screen.findByText(/URL forwarding needs this project's own service/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/domain-config/forwarding'))).toBe(false);
  });

  it("against this project's service shows the state and the form", async () => {
    serve('ours');
    renderPanel();
    expect(await screen.findByText('Not forwarding.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Send visitors to' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Forward this domain' })).toBeTruthy();
  });
});
