import { request } from 'node:http';
import { generatePrivateKey } from 'viem/accounts';
import { test, expect } from './support/fixtures.ts';
import { DASHBOARD_URL } from './support/env.ts';
import { ownDomain } from './support/service-client.ts';
import { resumeSession } from './support/pages.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { domainPage } from './pages/domain.ts';
import { forwardingPanel } from './pages/forwarding.ts';
import { recordsPage } from './pages/records.ts';

const owner = generatePrivateKey();
const domain = `fwd-${Date.now().toString(36)}.com`;

/** A GET as a browser sends it to http://<host><path>, reaching the service's forwarder (FORWARD_PORT), unfollowed. */
function askForwarder(host: string, path: string): Promise<{ status: number; location: string | null }> {
  return new Promise((done, fail) => {
    const req = request({ hostname: '127.0.0.1', port: Number(process.env.E2E_FORWARD_PORT), path, headers: { host } }, (res) => {
      res.resume();
      res.once('end', () => done({ status: res.statusCode ?? 0, location: res.headers.location ?? null }));
    });
    req.once('error', fail);
    req.end();
  });
}

test.describe('forwarding', () => {
  test.use({ walletKeys: [owner] });

  test.beforeAll(async () => {
    await ownDomain(owner, domain);
  });

  test('forward a domain, try it, and follow the redirect through the forwarder', async ({ page, wallet }) => {
    await resumeSession(page, wallet);
    await page.goto(`/domains/${domain}`);
    const forwarding = forwardingPanel(page);
    await expect(domainPage(page).fact('Parking / forwarding')).toHaveText('Parked');
    await forwarding.open();
    await expect(forwarding.state).toHaveText('Not forwarding.');

    // The landing page is the dashboard's own about page, so the redirect can be followed without leaving the machine.
    const target = `${DASHBOARD_URL}/landing`;
    await forwarding.forward.click();
    await expect(forwarding.panel.getByText('Enter the address to send visitors to')).toBeVisible();
    await forwarding.target.fill(`https://www.${domain}/x`);
    await forwarding.forward.click();
    await expect(forwarding.panel.getByText(/loop/)).toBeVisible();
    await forwarding.target.fill(target);
    await forwarding.kind.selectOption('302');
    const signaturesBefore = wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length;
    await forwarding.forward.click();

    // What will happen, in words, before the wallet opens.
    await expect(forwarding.dialog).toContainText(`Send visitors of ${domain} and www.${domain} to ${target}, temporarily (302)`);
    await expect(forwarding.dialog).toContainText(`${domain}/some/page?ref=1 goes to ${target}/some/page?ref=1`);
    await expect(forwarding.dialog).toContainText(`Turn parking off for ${domain}`);
    await expectNoSeriousA11yViolations(page);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(signaturesBefore);
    await forwarding.confirm.click();
    await expect(forwarding.dialog).toBeHidden();
    await expect(forwarding.state).toHaveText(`Forwarding to ${target}, temporary (302), path kept.`);
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(signaturesBefore + 1);
    // The overview says so, and the apex now answers the forwarder's address, read-only, in the records table.
    await expect(domainPage(page).fact('Parking / forwarding')).toHaveText(`Forwarding to ${target}`);
    await expect(domainPage(page).fact('Domain answers')).toHaveText('Answers 127.0.0.1');
    await recordsPage(page).show();
    await expect(recordsPage(page).rowWith('127.0.0.1')).toBeVisible();
    await forwarding.open();

    // Try it: the service asks its forwarder and shows the redirect.
    await forwarding.tryPath.fill('/pricing?plan=pro');
    await forwarding.tryIt.click();
    await expect(forwarding.location).toHaveText(`${target}/pricing?plan=pro`);
    await expect(forwarding.panel).toContainText(`The forwarder answered http://${domain}/pricing?plan=pro with 302`);

    // A visitor: the forwarder redirects, and the redirect lands on a page that answers.
    const answer = await askForwarder(`www.${domain}`, '/pricing?plan=pro');
    expect(answer).toEqual({ status: 302, location: `${target}/pricing?plan=pro` });
    const landed = await page.request.get(answer.location!);
    expect(landed.status()).toBe(200);
  });
});
