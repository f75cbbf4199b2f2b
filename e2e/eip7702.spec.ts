import { concat, hashMessage, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { serviceHeaders, DEFAULT_HEADER_PREFIX } from '#core/headers.ts';
import { smartAccountAbi } from '../server/chain/contracts.ts';
import { test, expect } from './support/fixtures.ts';
import { delegateToSimple7702, e2eChain, nftOwnerOf } from './support/chain.ts';
import { expectListed, registerThroughCheckout } from './support/journeys.ts';
import { header, signIn } from './support/pages.ts';
import { call, faucet, signedCall, siweSignIn, waitForOrder, withToken } from './support/service-client.ts';
import { recordsPage } from './pages/records.ts';

const run = Date.now().toString(36);
const h = serviceHeaders(DEFAULT_HEADER_PREFIX);

/** The EOA's code after delegating: the EIP-7702 designator 0xef0100 followed by the delegate's address. */
async function expectDelegated(key: Hex, delegate: `0x${string}`): Promise<void> {
  const { clients } = await e2eChain();
  const eoa = privateKeyToAccount(key).address;
  expect((await clients.public.getCode({ address: eoa }))?.toLowerCase()).toBe(concat(['0xef0100', delegate]).toLowerCase());
  // The code answers ERC-1271 for the EOA's own signatures, and for nobody else's.
  const hash = hashMessage('who signs for this account');
  const isValid = async (signer: Hex) =>
    clients.public.readContract({ address: eoa, abi: smartAccountAbi, functionName: 'isValidSignature', args: [hash, await privateKeyToAccount(signer).sign({ hash })] });
  expect(await isValid(key)).toBe('0x1626ba7e');
  expect(await isValid(generatePrivateKey())).toBe('0xffffffff');
}

test.describe('an EOA delegated with EIP-7702 to Simple7702Account (account-abstraction 0.8)', () => {
  // Registration and records with real signatures checked on the chain: longer than a minute on two cores.
  test.describe.configure({ timeout: 180_000 });
  const key = generatePrivateKey();
  const eoa = privateKeyToAccount(key).address;
  test.use({ walletKeys: [key] });

  test('signs in with MetaMask, registers and edits records as itself; the EOA holds the NFT', async ({ page, wallet }) => {
    const delegate = await delegateToSimple7702(key);
    await expectDelegated(key, delegate);
    const domain = `eip7702-${run}.com`;

    await page.goto('/');
    await signIn(page, wallet);
    await expect(header(page).account(eoa)).toBeVisible();
    expect(wallet.mode).toBe('metamask');

    await registerThroughCheckout(page, domain);
    expect(await nftOwnerOf(domain)).toBe(eoa);
    await expectListed(page, domain);
    const records = recordsPage(page);
    await records.open(domain);
    await records.addAndSign('A', 'web', { 'IPv4 address': '192.0.2.77' });
    await expect(records.row('A', 'web')).toContainText('192.0.2.77');
    expect(wallet.requests.filter((m) => m === 'eth_signTypedData_v4').length).toBeGreaterThanOrEqual(2);
  });

  test('with the x-namefi-eip7702-account header the service asks the account (ERC-1271): its key writes, another key is refused', async ({ page, wallet }) => {
    const delegate = await delegateToSimple7702(key);
    await expectDelegated(key, delegate);
    const domain = `eip7702-hdr-${run}.com`;
    const asAccount = { [h.eip7702Account]: eoa };

    // Sign-in (SIWE) as the delegated EOA, then a purchase signed with the header: the service checks the account.
    const token = await siweSignIn(key);
    await faucet(token);
    const order = await signedCall(key, 'registerDomain', { normalizedDomainName: domain, durationInYears: 1 }, asAccount);
    expect((await waitForOrder(token, order.id)).order.status).toBe('SUCCEEDED');
    expect(await nftOwnerOf(domain)).toBe(eoa);

    // A record edit with the header.
    const created = await signedCall(key, 'createDnsRecord', { zoneName: domain, name: 'api', type: 'A', rdata: '192.0.2.78', ttl: 300 }, asAccount);
    expect(created).toMatchObject({ zoneName: domain, name: 'api', type: 'A', rdata: '192.0.2.78' });
    const records = await call('getDnsRecords', { query: { zoneName: domain } }, withToken(token));
    expect(records.map((r) => `${r.type} ${r.name} ${r.rdata}`)).toContain('A api 192.0.2.78');

    // Another key naming the account: Simple7702Account accepts only the EOA's own key, so the service refuses.
    const stranger = generatePrivateKey();
    const refused = await signedCall(stranger, 'createDnsRecord', { zoneName: domain, name: 'evil', type: 'A', rdata: '192.0.2.79', ttl: 300 }, asAccount).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401 });
    expect(String((refused as Error).message)).toContain('did not accept the signature');

    // The dashboard, signed in with MetaMask as the same EOA, shows the record written with the header.
    await page.goto('/');
    await signIn(page, wallet);
    const editor = recordsPage(page);
    await editor.open(domain);
    await expect(editor.row('A', 'api')).toContainText('192.0.2.78');
    await expect(editor.row('A', 'evil')).toHaveCount(0);
  });
});
