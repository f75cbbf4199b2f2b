import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, hexToBigInt, keccak256, parseUnits, stringToBytes, zeroAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { creditAbi, domainRegistryAbi } from './contracts.ts';
import { deploySmartAccount } from '../../test/chain/accounts.ts';
import { revertName } from './errors.ts';
import { orderRef } from './credit.ts';
import { startTestChain, type TestChain } from '../../test/chain/testing.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

const newWallet = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.fund(account.address);
  return account;
};
const reverted = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return revertName(error);
  }
  throw new Error('expected a revert');
};

describe('DomainRegistry', () => {
  const registry = () => ({ address: chain.deployment.registry, abi: domainRegistryAbi });
  const read = <F extends 'ownerOf' | 'nameOf' | 'expiresAt' | 'balanceOf' | 'tokensOf' | 'domainsOf' | 'domainByName' | 'supportsInterface'>(
    functionName: F,
    args: readonly unknown[],
  ) => chain.clients.public.readContract({ ...registry(), functionName, args } as never) as Promise<any>;
  const mint = (to: Address, name: string, expiry: bigint) =>
    chain.clients.write((w) => w.writeContract({ ...registry(), functionName: 'mint', args: [to, name, expiry] }));

  it('mints a token whose id is uint256(keccak256(name)), carrying its name and expiry', async () => {
    const alice = await newWallet();
    await mint(alice.address, 'example.com', 2_000_000_000n);
    const tokenId = hexToBigInt(keccak256(stringToBytes('example.com')));
    expect(await read('ownerOf', [tokenId])).toBe(alice.address);
    expect(await read('nameOf', [tokenId])).toBe('example.com');
    expect(await read('expiresAt', [tokenId])).toBe(2_000_000_000n);
    expect(await read('balanceOf', [alice.address])).toBe(1n);
    expect(await read('domainByName', ['example.com'])).toEqual([alice.address, tokenId, 2_000_000_000n]);
    expect(await read('domainByName', ['never-minted.com'])).toEqual([zeroAddress, hexToBigInt(keccak256(stringToBytes('never-minted.com'))), 0n]);
  });

  it('refuses a second mint of the same name, an empty name, and a mint by anyone but the service', async () => {
    const alice = await newWallet();
    await mint(alice.address, 'taken.io', 2_000_000_000n);
    expect(await reverted(mint(alice.address, 'taken.io', 2_000_000_000n))).toBe('AlreadyRegistered');
    expect(await reverted(mint(alice.address, '', 2_000_000_000n))).toBe('EmptyName');
    const stranger = await newWallet();
    expect(
      await reverted(chain.clients.wallet.writeContract({ ...registry(), account: stranger, functionName: 'mint', args: [stranger.address, 'mine.com', 1n] })),
    ).toBe('OwnableUnauthorizedAccount');
  });

  it('moves ownerOf, balances and each holder’s domain list with a transfer', async () => {
    const alice = await newWallet();
    const bob = await newWallet();
    for (const name of ['a-one.com', 'a-two.com', 'a-three.com']) await mint(alice.address, name, 2_000_000_000n);
    const two = hexToBigInt(keccak256(stringToBytes('a-two.com')));
    const hash = await chain.clients.wallet.writeContract({ ...registry(), account: alice, functionName: 'transferFrom', args: [alice.address, bob.address, two] });
    await chain.clients.public.waitForTransactionReceipt({ hash });
    expect(await read('ownerOf', [two])).toBe(bob.address);
    expect(await read('balanceOf', [alice.address])).toBe(2n);
    const aliceNames = ((await read('domainsOf', [alice.address])) as { name: string }[]).map((d) => d.name).sort();
    expect(aliceNames).toEqual(['a-one.com', 'a-three.com']);
    expect(await read('domainsOf', [bob.address])).toEqual([{ tokenId: two, name: 'a-two.com', expiresAt: 2_000_000_000n }]);
    expect(await read('tokensOf', [bob.address])).toEqual([two]);
  });

  it('lets only the holder, an approved address or an operator transfer', async () => {
    const alice = await newWallet();
    const bob = await newWallet();
    const carol = await newWallet();
    await mint(alice.address, 'guarded.org', 2_000_000_000n);
    const id = hexToBigInt(keccak256(stringToBytes('guarded.org')));
    const transfer = (by: typeof alice, to: Address) =>
      chain.clients.wallet.writeContract({ ...registry(), account: by, functionName: 'transferFrom', args: [alice.address, to, id] });
    expect(await reverted(transfer(bob, bob.address))).toBe('ERC721InsufficientApproval');
    await chain.clients.public.waitForTransactionReceipt({
      hash: await chain.clients.wallet.writeContract({ ...registry(), account: alice, functionName: 'approve', args: [carol.address, id] }),
    });
    await chain.clients.public.waitForTransactionReceipt({ hash: await transfer(carol, carol.address) });
    expect(await read('ownerOf', [id])).toBe(carol.address);
  });

  it('sends with safeTransferFrom to a smart account, and refuses a contract that cannot receive NFTs', async () => {
    const alice = await newWallet();
    await mint(alice.address, 'safe.dev', 2_000_000_000n);
    const id = hexToBigInt(keccak256(stringToBytes('safe.dev')));
    const account = await deploySmartAccount(chain.clients, chain.deployment, alice.address);
    const safeTransfer = (to: Address) =>
      chain.clients.wallet.writeContract({ ...registry(), account: alice, functionName: 'safeTransferFrom', args: [alice.address, to, id] });
    expect(await reverted(safeTransfer(chain.deployment.credit))).toBe('ERC721InvalidReceiver');
    await chain.clients.public.waitForTransactionReceipt({ hash: await safeTransfer(account) });
    expect(await read('ownerOf', [id])).toBe(getAddress(account));
  });

  it('announces ERC-165 and ERC-721 support', async () => {
    expect(await read('supportsInterface', ['0x01ffc9a7'])).toBe(true);
    expect(await read('supportsInterface', ['0x80ac58cd'])).toBe(true);
    expect(await read('supportsInterface', ['0xffffffff'])).toBe(false);
  });
});

describe('Credit', () => {
  const credit = () => ({ address: chain.deployment.credit, abi: creditAbi });
  const balanceOf = (a: Address) => chain.clients.public.readContract({ ...credit(), functionName: 'balanceOf', args: [a] });
  const serviceWrite = (functionName: 'mint' | 'charge' | 'refund', args: readonly unknown[]) =>
    chain.clients.write((w) => w.writeContract({ ...credit(), functionName, args } as never));

  it('has 18 decimals, and only the service mints', async () => {
    expect(await chain.clients.public.readContract({ ...credit(), functionName: 'decimals' })).toBe(18);
    const alice = await newWallet();
    await serviceWrite('mint', [alice.address, parseUnits('100', 18)]);
    expect(await balanceOf(alice.address)).toBe(parseUnits('100', 18));
    expect(
      await reverted(chain.clients.wallet.writeContract({ ...credit(), account: alice, functionName: 'mint', args: [alice.address, 1n] })),
    ).toBe('OwnableUnauthorizedAccount');
  });

  it('charges an order once, refuses a charge the balance cannot pay, and refunds at most the charge', async () => {
    const alice = await newWallet();
    await serviceWrite('mint', [alice.address, parseUnits('50', 18)]);
    const ref = orderRef('order-1');
    await serviceWrite('charge', [alice.address, parseUnits('12.5', 18), ref]);
    await serviceWrite('charge', [alice.address, parseUnits('12.5', 18), ref]);
    expect(await balanceOf(alice.address)).toBe(parseUnits('37.5', 18));
    expect(await reverted(serviceWrite('charge', [alice.address, parseUnits('99', 18), ref]))).toBe('ChargeMismatch');
    expect(await reverted(serviceWrite('charge', [alice.address, parseUnits('40', 18), orderRef('order-2')]))).toBe('InsufficientBalance');
    expect(await balanceOf(alice.address)).toBe(parseUnits('37.5', 18));

    await serviceWrite('refund', [ref, parseUnits('5', 18)]);
    await serviceWrite('refund', [ref, parseUnits('5', 18)]);
    expect(await balanceOf(alice.address)).toBe(parseUnits('42.5', 18));
    expect(await reverted(serviceWrite('refund', [ref, parseUnits('13', 18)]))).toBe('RefundTooLarge');
    expect(await reverted(serviceWrite('refund', [orderRef('never-charged'), 1n]))).toBe('UnknownCharge');
    const stranger = await newWallet();
    expect(
      await reverted(chain.clients.wallet.writeContract({ ...credit(), account: stranger, functionName: 'charge', args: [alice.address, 1n, orderRef('x')] })),
    ).toBe('OwnableUnauthorizedAccount');
  });

  it('transfers as an ERC-20, with allowances for transferFrom', async () => {
    const alice = await newWallet();
    const bob = await newWallet();
    await serviceWrite('mint', [alice.address, parseUnits('10', 18)]);
    const send = async (by: typeof alice, functionName: 'transfer' | 'approve' | 'transferFrom', args: readonly unknown[]) =>
      chain.clients.public.waitForTransactionReceipt({
        hash: await chain.clients.wallet.writeContract({ ...credit(), account: by, functionName, args } as never),
      });
    await send(alice, 'transfer', [bob.address, parseUnits('3', 18)]);
    expect(await balanceOf(bob.address)).toBe(parseUnits('3', 18));
    expect(await reverted(chain.clients.wallet.writeContract({ ...credit(), account: bob, functionName: 'transferFrom', args: [alice.address, bob.address, 1n] }))).toBe(
      'ERC20InsufficientAllowance',
    );
    await send(alice, 'approve', [bob.address, parseUnits('2', 18)]);
    await send(bob, 'transferFrom', [alice.address, bob.address, parseUnits('2', 18)]);
    expect(await balanceOf(alice.address)).toBe(parseUnits('5', 18));
    expect(await balanceOf(bob.address)).toBe(parseUnits('5', 18));
  });
});
