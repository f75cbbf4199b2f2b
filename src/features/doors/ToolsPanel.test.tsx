// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKeySummary } from '#core/wire/user.ts';
import { config } from '@/lib/config.ts';
import { walletSession } from '@/lib/session/wallet-session.ts';
import { json, renderWithQueries } from '../../../test/dashboard/service-edge.tsx';
import ToolsPanel from './ToolsPanel.tsx';

/*
 * The "Connect a tool" panel against the service's answers at the network edge: each purpose asks for the narrowest
 * key, says so before anything is signed, and shows its tools' configurations with the key once. That the tools read
 * these texts is checked with the tools themselves (test/doors/tool-configs.test.ts, the ddclient test).
 */

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
const ZONE = 'shop.com';
const KEY_ID = '6f1c1a52-8d8e-4a7e-9a64-0d6a1f3a2b10';
const KEY = `nfk_${'k'.repeat(43)}`;
const SECRET = 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=';
const summary = (over: Partial<ApiKeySummary>): ApiKeySummary => ({ id: 'x', label: 'x', prefix: 'nfk_x', createdAt: '2026-11-01T00:00:00.000Z', lastUsedAt: null, lastUsedVia: null, scope: null, tsig: null, ...over });

interface Served {
  created: Array<{ label: string; scope: unknown; tsig: boolean }>;
}

function serve(dns: { host: string | null; port: number } | null | 'not offered' = { host: '127.0.0.1', port: 8053 }): Served {
  const served: Served = { created: [] };
  const keys: ApiKeySummary[] = [
    summary({ id: 'ddns', label: 'router', scope: { zones: [ZONE], names: ['home'], types: ['A', 'AAAA'], access: 'write', expiresAt: null, cidrs: [] }, lastUsedAt: new Date(Date.now() - 5 * 60_000).toISOString(), lastUsedVia: 'dyndns2' }),
    summary({ id: 'other', label: 'elsewhere', scope: { zones: ['other.com'], names: [], types: [], access: 'write', expiresAt: null, cidrs: [] } }),
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const { pathname } = new URL(url);
      if (pathname.endsWith('/doors')) {
        // Production has no such operation: its 404.
        if (dns === 'not offered') return new Response(JSON.stringify({ defined: true, code: 'NOT_FOUND', status: 404, message: 'Not Found' }), { status: 404, headers: { 'content-type': 'application/json' } });
        return json({ dns, dynDns: { path: '/nic/update' } });
      }
      if (pathname.endsWith('/user/api-keys') && init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Served['created'][number];
        served.created.push(body);
        keys.unshift(summary({ id: KEY_ID, label: body.label, prefix: KEY.slice(0, 12), scope: body.scope as ApiKeySummary['scope'], tsig: body.tsig ? { keyName: `nfk-${KEY_ID}.`, algorithm: 'hmac-sha256' } : null }));
        return json({ id: KEY_ID, label: body.label, key: KEY, createdAt: new Date().toISOString(), scope: body.scope, ...(body.tsig ? { tsig: { keyName: `nfk-${KEY_ID}.`, algorithm: 'hmac-sha256', secret: SECRET } } : {}) });
      }
      if (pathname.endsWith('/user/api-keys')) return json(keys);
      throw new Error(`unexpected request ${url}`);
    }),
  );
  return served;
}

beforeEach(() => {
  walletSession.setState({ account: { status: 'connected', address, chainId: 31337 } });
  walletSession.getState().startSession({ address, chainId: 31337, token: 'test-token', expiresAt: Date.now() + 3_600_000, apiBaseUrl: config.apiBaseUrl });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  walletSession.getState().endSession('signed-out');
});

const configText = (title: string) => (screen.getByRole('textbox', { name: title }) as HTMLTextAreaElement).value;

async function choose(purposeName: RegExp) {
  const user = userEvent.setup();
  renderWithQueries(<ToolsPanel domain={ZONE} />);
  await user.click(await screen.findByRole('radio', { name: purposeName }));
  return user;
}

describe('Connect a tool', () => {
  it('Certificates: a key for TXT at the challenge names only, said before it is made, then certbot, lego, Caddy and cert-manager with it', async () => {
    const served = serve();
    const user = await choose(/^Certificates \(certbot, lego, Caddy, Traefik, cert-manager\)/);
    await user.click(screen.getByRole('checkbox', { name: `*.${ZONE} (every name below it)` }));
    await user.type(screen.getByRole('textbox', { name: 'Other names' }), 'api');
    const form = screen.getByRole('form', { name: 'The key for this tool' });
    expect(within(form).getByRole('status').textContent).toContain('may write TXT under _acme-challenge, _acme-challenge.www and _acme-challenge.api only of shop.com, with a TSIG form for DNS UPDATE');
    await user.click(screen.getByRole('button', { name: 'Make the key' }));

    expect(await screen.findByRole('textbox', { name: 'certbot credentials file' })).toBeTruthy();
    expect(served.created).toEqual([{ label: `Certificates for ${ZONE}`, tsig: true, scope: { zones: [ZONE], names: ['_acme-challenge', '_acme-challenge.www', '_acme-challenge.api'], types: ['TXT'], access: 'write', expiresAt: null, cidrs: [] } }]);
    expect(configText('certbot credentials file')).toBe(
      ['# certbot-dns-rfc2136 credentials: a key that may only write the ACME challenge records (TXT) of these names.', 'dns_rfc2136_server = 127.0.0.1', 'dns_rfc2136_port = 8053', `dns_rfc2136_name = nfk-${KEY_ID}.`, `dns_rfc2136_secret = ${SECRET}`, 'dns_rfc2136_algorithm = HMAC-SHA256', 'dns_rfc2136_sign_query = true', ''].join('\n'),
    );
    expect(configText('certbot command')).toBe(`certbot certonly --dns-rfc2136 --dns-rfc2136-credentials ~/.secrets/namefi-rfc2136.ini --dns-rfc2136-propagation-seconds 5 --email you@example.com --agree-tos -d '${ZONE}' -d 'www.${ZONE}' -d '*.${ZONE}' -d 'api.${ZONE}'`);
    expect(configText('lego (and Traefik) environment')).toContain(`RFC2136_NAMESERVER=127.0.0.1:8053\nRFC2136_TSIG_ALGORITHM=hmac-sha256.\nRFC2136_TSIG_KEY=nfk-${KEY_ID}.\nRFC2136_TSIG_SECRET=${SECRET}\n`);
    expect(configText('lego (and Traefik) environment')).toContain(`lego --email you@example.com --dns rfc2136 --domains '${ZONE}' --domains 'www.${ZONE}' --domains '*.${ZONE}' --domains 'api.${ZONE}' run`);
    expect(configText('Caddy (with the rfc2136 module)')).toContain(`key "${SECRET}"`);
    const issuer = configText('cert-manager Issuer and its Secret');
    expect(issuer).toContain(`  tsig-secret: "${SECRET}"`);
    expect(issuer).toContain(`            tsigKeyName: "nfk-${KEY_ID}."\n            tsigAlgorithm: HMACSHA256`);

    // Once: Done hides the secret for good, and the new key is listed with its scope in words.
    await user.click(screen.getByRole('button', { name: 'Done: hide the secret' }));
    expect(screen.queryByText(SECRET, { exact: false })).toBeNull();
    const list = screen.getByRole('region', { name: `Keys that reach ${ZONE}` });
    expect(await within(list).findByText(`Certificates for ${ZONE}`)).toBeTruthy();
    expect(within(list).getByText('Writes TXT under _acme-challenge, _acme-challenge.www and _acme-challenge.api only; has a TSIG form for DNS UPDATE')).toBeTruthy();
  });

  it('Kubernetes: a key for the whole zone, and external-dns’s arguments with a keyed transfer', async () => {
    const served = serve();
    const user = await choose(/^Kubernetes \(external-dns\)/);
    expect(screen.getByRole('status').textContent).toContain('may write every type at every name of shop.com, with a TSIG form');
    await user.click(screen.getByRole('button', { name: 'Make the key' }));
    const args = (await screen.findByRole('textbox', { name: 'external-dns arguments' })) as HTMLTextAreaElement;
    expect(served.created[0]).toMatchObject({ tsig: true, scope: { zones: [ZONE], names: [], types: [], access: 'write' } });
    expect(args.value.split('\n')).toEqual([
      '--provider=rfc2136', '--rfc2136-host=127.0.0.1', '--rfc2136-port=8053', `--rfc2136-zone=${ZONE}`, `--rfc2136-tsig-keyname=nfk-${KEY_ID}.`, `--rfc2136-tsig-secret=${SECRET}`,
      '--rfc2136-tsig-secret-alg=hmac-sha256', '--rfc2136-tsig-axfr', `--domain-filter=${ZONE}`, '--registry=txt', '--txt-owner-id=shop-com-cluster', '--policy=upsert-only', '',
    ]);
  });

  it('Terraform: a key for the whole zone, and a hashicorp/dns provider block', async () => {
    serve();
    const user = await choose(/^Terraform/);
    await user.click(screen.getByRole('button', { name: 'Make the key' }));
    const text = ((await screen.findByRole('textbox', { name: 'Terraform provider' })) as HTMLTextAreaElement).value;
    expect(text).toContain('source  = "hashicorp/dns"');
    expect(text).toContain(`  update {\n    server        = "127.0.0.1"\n    port          = 8053\n    key_name      = "nfk-${KEY_ID}."\n    key_algorithm = "hmac-sha256"\n    key_secret    = "${SECRET}"\n  }`);
    expect(text).toContain(`zone      = "${ZONE}."`);
  });

  it('Home router: A and AAAA at the chosen hostnames, no TSIG, a ddclient.conf and the router’s fields', async () => {
    const served = serve();
    const user = await choose(/^Home router or ddclient/);
    const hostnames = screen.getByRole('textbox', { name: 'Hostnames' });
    await user.clear(hostnames);
    await user.type(hostnames, `home, nas.${ZONE}`);
    expect(screen.getByRole('status').textContent).toContain('may write A and AAAA under home and nas only of shop.com, for DynDNS2');
    await user.click(screen.getByRole('button', { name: 'Make the key' }));
    const conf = ((await screen.findByRole('textbox', { name: 'ddclient.conf' })) as HTMLTextAreaElement).value;
    expect(served.created).toEqual([{ label: `Home router or ddclient for ${ZONE}`, tsig: false, scope: { zones: [ZONE], names: ['home', 'nas'], types: ['A', 'AAAA'], access: 'write', expiresAt: null, cidrs: [] } }]);
    const origin = new URL(config.apiBaseUrl);
    expect(conf).toContain(`ssl=${origin.protocol === 'https:' ? 'yes' : 'no'}\nuse=no\nusev4=webv4\nwebv4=ipify-ipv4\nprotocol=dyndns2\nserver=${origin.host}\nlogin=${KEY_ID}\npassword=${KEY}\nhome.${ZONE},nas.${ZONE}\n`);
    expect(configText('A router’s DynDNS settings')).toContain(`Username: ${KEY_ID}\nPassword: ${KEY}\nHostname: home.${ZONE},nas.${ZONE}`);
  });

  it('refuses a hostname that is not a name, and says the DNS purposes are out of reach where the service answers no DNS', async () => {
    serve(null);
    const user = await choose(/^Home router or ddclient/);
    const hostnames = screen.getByRole('textbox', { name: 'Hostnames' });
    await user.clear(hostnames);
    await user.type(hostnames, 'h!ome');
    expect(screen.getByText(`h!ome is not a name under ${ZONE}`)).toBeTruthy();
    await user.clear(hostnames);
    await user.type(hostnames, '*.lan');
    expect(screen.getByText(`*.lan is not a name under ${ZONE}`)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Make the key' }) as HTMLButtonElement).disabled).toBe(true);
    for (const name of [/^Certificates/, /^Kubernetes/, /^Terraform/]) expect((screen.getByRole('radio', { name }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getAllByText('This service answers no DNS (DNS_PORT is not set)')).toHaveLength(3);
  });

  it('against a service without the doors (production), offers no purpose and says why', async () => {
    serve('not offered');
    renderWithQueries(<ToolsPanel domain={ZONE} />);
    expect(await screen.findByText('This service does not say where its DNS UPDATE and DynDNS2 doors open')).toBeTruthy();
    for (const radio of screen.getAllByRole('radio')) expect((radio as HTMLInputElement).disabled).toBe(true);
  });

  it('lists the keys that reach the domain with when and through which door each was last used', async () => {
    serve();
    renderWithQueries(<ToolsPanel domain={ZONE} />);
    const list = await screen.findByRole('region', { name: `Keys that reach ${ZONE}` });
    expect(await within(list).findByText('router')).toBeTruthy();
    expect(within(list).getByText('Writes A and AAAA under home only')).toBeTruthy();
    expect(within(list).getByText('Last used 5 minutes ago through DynDNS2')).toBeTruthy();
    expect(within(list).queryByText('elsewhere')).toBeNull();
  });

  it('says the wallet will ask to sign in once before anything is made, when not signed in', async () => {
    serve();
    walletSession.getState().endSession('signed-out');
    await choose(/^Terraform/);
    expect(screen.getByRole('status').textContent).toContain('First your wallet asks you to sign in, once: a message proving this address is yours. No transaction, nothing is paid.');
    expect(screen.getByRole('button', { name: 'Sign in and make the key' })).toBeTruthy();
  });
});
