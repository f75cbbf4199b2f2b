import type { Page } from '@playwright/test';
import { createWalletClient, hashMessage, hashTypedData, http, numberToHex, type Address, type Hex, type TypedDataDefinition } from 'viem';
import { anvil } from 'viem/chains';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { metamaskPersonalSign, metamaskSignTypedDataV4 } from '../../test/support/metamask-signing.ts';
import { installTestWalletProvider } from './test-wallet-page.ts';
import { CHAIN_RPC_URL } from './env.ts';

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" rx="8" fill="#1d4ed8"/><text x="16" y="21" font-size="14" text-anchor="middle" fill="#fff">T</text></svg>').toString('base64');

export const TEST_WALLET_NAME = 'Test Wallet';
/** Its EIP-6963 rdns, which wagmi takes as the connector's id. */
export const TEST_WALLET_CONNECTOR_ID = 'dev.namefi.testwallet';
const KNOWN_CHAINS = [1, 8453, 11155111, 46630, 31337];

/**
 * A smart-account wallet (as Coinbase Smart Wallet is): it reports the contract's address and signs with its
 * owner key, in the form the account's ERC-1271 accepts. `wrap` turns the owner's signature into the account's,
 * e.g. ERC-6492 for an account not deployed yet; without it the owner's signature is the account's.
 */
export interface SmartAccountMode {
  address: `0x${string}`;
  wrap?: (signature: Hex) => Hex;
  /**
   * Signs the digest of what the page asked (the EIP-191 hash of a personal_sign text, the EIP-712 hash of typed
   * data) in the account's own way instead of the active key: a Safe's owners sign a SafeMessage of it.
   */
  signDigest?: (digest: Hex) => Promise<Hex>;
  /** Signs a personal_sign message (its raw bytes) as the account's own wallet does: a viem smart account, say. */
  signMessage?: (message: Hex) => Promise<Hex>;
  /** Signs the page's typed data as the account's own wallet does (ERC-7739 nesting by a Solady account, say). */
  signTypedData?: (definition: TypedDataDefinition) => Promise<Hex>;
}

/**
 * How the wallet signs. `metamask`: as the MetaMask extension does, with `@metamask/eth-sig-util` on the JSON
 * string the dashboard sends, after MetaMask's checks (every journey's default). `viem`: with viem, which can
 * also act as a smart account (ERC-1271/6492) or sign for a delegated EIP-7702 EOA.
 */
export type WalletMode = 'metamask' | 'viem';

/** The requests a wallet shows to the person and waits on: connecting, and every signature. */
const APPROVED_BY_A_PERSON = ['eth_requestAccounts', 'personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'];

type Answer = { ok: true; result: unknown } | { ok: false; error: { code: number; message: string } };

/**
 * The Node half of the test wallet: it owns the keys (viem privateKeyToAccount), decides each request,
 * and drives the page's provider events. A test switches accounts and chains and rejects requests
 * the way a person would in a wallet extension.
 */
export class TestWallet {
  readonly accounts: PrivateKeyAccount[];
  private readonly keys: Hex[];
  private index = 0;
  private connected = false;
  chainId: number;
  private page?: Page;
  private rejections: Array<string | undefined> = [];
  private holds: Array<{ method: string; skip: number; reached: () => void; gate: Promise<void> }> = [];
  private smartAccount?: SmartAccountMode;
  /** Chains the wallet can switch to; drop one to see the dashboard add it (wallet_addEthereumChain). */
  readonly knownChains = new Set(KNOWN_CHAINS);
  /** The parameters of each wallet_addEthereumChain the page sent. */
  readonly addedChains: Array<{ chainId: string; chainName?: string; rpcUrls?: string[] }> = [];
  /** Every method the page asked for, in order: lets a test check what the dashboard requested. */
  readonly requests: string[] = [];
  /**
   * How long the person takes to read a connection or signature request in the wallet before approving it.
   * Journeys leave it at 0 (they wait on what the page shows); the request-rate bench sets a person's pace.
   */
  approvalDelayMs = 0;

  constructor(
    keys: Hex[],
    chainId = 31337,
    readonly mode: WalletMode = 'metamask',
  ) {
    this.keys = keys;
    this.accounts = keys.map((k) => privateKeyToAccount(k));
    this.chainId = chainId;
  }

  /** The address the wallet reports: the active key's, or the smart account it acts as. */
  get address(): `0x${string}` {
    return this.smartAccount?.address ?? this.signerAddress;
  }

  /** The active key (Node side), for a returning visitor's session signed in Node (e2e/support/pages.ts: resumeSession). */
  get key(): Hex {
    return this.keys[this.index];
  }

  /** As if the person approved this site in the wallet on an earlier visit: eth_accounts answers from the start. */
  rememberConnection(): void {
    this.connected = true;
  }

  /** The key that really signs (the smart account's owner in smart-account mode). */
  get signerAddress(): `0x${string}` {
    return this.accounts[this.index].address;
  }

  /** From now on the wallet is a smart account owned by the active key (undefined: a plain EOA again). */
  async actAsSmartAccount(mode: SmartAccountMode | undefined): Promise<void> {
    if (mode && this.mode !== 'viem') throw new Error('MetaMask signs as its own accounts only: use the viem wallet mode for a smart account');
    this.smartAccount = mode;
    if (this.connected) await this.emit('accountsChanged', [this.address]);
  }

  async install(page: Page): Promise<void> {
    this.page = page;
    await page.exposeFunction('__testWalletRequest', (method: string, params: unknown) => this.handle(method, params));
    await page.addInitScript(installTestWalletProvider, {
      uuid: '7f3a3c2e-5b7d-4c55-9d0b-6f1e2a9b8c01',
      name: TEST_WALLET_NAME,
      icon: ICON,
      rdns: TEST_WALLET_CONNECTOR_ID,
    });
  }

  /** The next request (of this method, or any) is declined with EIP-1193 code 4001. */
  rejectNext(method?: string): void {
    this.rejections.push(method);
  }

  /**
   * A request of `method` (after letting `after` of them through) waits in the wallet, as with a person still reading
   * it, until release(); `reached` resolves when it arrives. Lets a journey reload the page mid-way through signing.
   */
  holdNext(method: string, options: { after?: number } = {}): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ method, skip: options.after ?? 0, reached, gate });
    return { reached: arrived, release };
  }

  async switchAccount(index: number): Promise<void> {
    this.index = index;
    if (this.connected) await this.emit('accountsChanged', [this.address]);
  }

  /** As if the person changed network in the wallet itself. */
  async switchChain(chainId: number): Promise<void> {
    this.chainId = chainId;
    await this.emit('chainChanged', numberToHex(chainId));
  }

  async disconnect(): Promise<void> {
    this.connected = false;
    await this.emit('accountsChanged', []);
  }

  private async emit(event: string, data: unknown): Promise<void> {
    await this.page?.evaluate(
      ([name, payload]) => (window as unknown as { __testWallet: { emit(e: string, d: unknown): void } }).__testWallet.emit(name as string, payload),
      [event, data] as const,
    );
  }

  private takeRejection(method: string): boolean {
    const at = this.rejections.findIndex((m) => m === undefined || m === method);
    if (at === -1) return false;
    this.rejections.splice(at, 1);
    return true;
  }

  private async handle(method: string, params: unknown): Promise<Answer> {
    this.requests.push(method);
    const args = Array.isArray(params) ? params : [];
    const interactive = ['eth_requestAccounts', 'personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_switchEthereumChain', 'wallet_requestPermissions', 'wallet_addEthereumChain'];
    if (interactive.includes(method) && this.takeRejection(method)) {
      return { ok: false, error: { code: 4001, message: 'User rejected the request.' } };
    }
    const hold = this.holds.find((h) => h.method === method);
    if (hold && hold.skip-- === 0) {
      this.holds.splice(this.holds.indexOf(hold), 1);
      hold.reached();
      await hold.gate;
    }
    if (this.approvalDelayMs > 0 && APPROVED_BY_A_PERSON.includes(method)) await new Promise((resolve) => setTimeout(resolve, this.approvalDelayMs));
    try {
      return { ok: true, result: await this.answer(method, args) };
    } catch (error) {
      const e = error as { code?: number; message?: string };
      return { ok: false, error: { code: e.code ?? -32603, message: e.message ?? 'Internal error' } };
    }
  }

  private async answer(method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts':
        this.connected = true;
        return [this.address];
      case 'eth_accounts':
        // Nothing before the person approves: otherwise wagmi connects on mount, unasked.
        return this.connected ? [this.address] : [];
      case 'eth_chainId':
        return numberToHex(this.chainId);
      case 'net_version':
        return String(this.chainId);
      case 'wallet_requestPermissions':
        this.connected = true;
        return [{ parentCapability: 'eth_accounts' }];
      case 'wallet_getPermissions':
        return this.connected ? [{ parentCapability: 'eth_accounts' }] : [];
      case 'wallet_revokePermissions':
        this.connected = false;
        return null;
      case 'wallet_switchEthereumChain': {
        const chainId = Number((args[0] as { chainId: string }).chainId);
        if (!this.knownChains.has(chainId)) throw Object.assign(new Error('Unrecognized chain'), { code: 4902 });
        await this.switchChain(chainId);
        return null;
      }
      case 'wallet_addEthereumChain': {
        // As MetaMask does once the person approves: the chain is added and the wallet switches to it.
        const added = args[0] as { chainId: string; chainName?: string; rpcUrls?: string[] };
        this.addedChains.push(added);
        this.knownChains.add(Number(added.chainId));
        await this.switchChain(Number(added.chainId));
        return null;
      }
      case 'personal_sign': {
        if (this.mode === 'metamask') return metamaskPersonalSign(this.activeKey(), args, { connected: this.address, chainId: this.chainId });
        const [message, address] = args as [Hex, string];
        const signer = this.accountFor(address);
        if (this.smartAccount?.signMessage) return this.smartAccount.signMessage(message);
        if (this.smartAccount?.signDigest) return this.smartAccount.signDigest(hashMessage({ raw: message }));
        return this.asWallet(await signer.signMessage({ message: { raw: message } }));
      }
      case 'eth_signTypedData_v4': {
        if (this.mode === 'metamask') return metamaskSignTypedDataV4(this.activeKey(), args, { connected: this.address, chainId: this.chainId });
        const [address, json] = args as [string, string];
        const typed = JSON.parse(json) as TypedDataDefinition & { types: Record<string, Array<{ name: string; type: string }>> };
        const { EIP712Domain: _domain, ...types } = typed.types;
        const definition = {
          domain: typed.domain,
          types,
          primaryType: typed.primaryType,
          message: withBigInts(types, typed.primaryType as string, typed.message) as Record<string, unknown>,
        } as TypedDataDefinition;
        const signer = this.accountFor(address);
        if (this.smartAccount?.signTypedData) return this.smartAccount.signTypedData(definition);
        if (this.smartAccount?.signDigest) return this.smartAccount.signDigest(hashTypedData(definition));
        const signature = await signer.signTypedData(definition);
        return this.asWallet(signature);
      }
      case 'eth_sendTransaction': {
        // As a wallet does once the person confirms: fills in gas, fees and nonce, signs with the active key and
        // sends it to the local chain (the e2e run's anvil); answers the hash before it is mined.
        const [request] = args as [{ from: string; to?: Address; data?: Hex; value?: Hex; chainId?: Hex }];
        if (this.smartAccount) throw Object.assign(new Error('The test wallet sends transactions from a plain key only'), { code: 4200 });
        if (this.chainId !== anvil.id) throw Object.assign(new Error(`The test wallet sends transactions on chain ${anvil.id} only`), { code: 4901 });
        const account = this.accountFor(request.from);
        const client = createWalletClient({ account, chain: anvil, transport: http(CHAIN_RPC_URL) });
        return client.sendTransaction({ to: request.to, data: request.data, value: request.value ? BigInt(request.value) : undefined });
      }
      default:
        throw Object.assign(new Error(`The test wallet does not support ${method}`), { code: 4200 });
    }
  }

  /** The signature as this wallet gives it: the owner's, shaped for the smart account when acting as one. */
  private asWallet(signature: Hex): Hex {
    return this.smartAccount?.wrap ? this.smartAccount.wrap(signature) : signature;
  }

  /** The connected account's key, for MetaMask's own checks and signing. */
  private activeKey(): Hex {
    if (!this.connected) throw Object.assign(new Error('Not connected'), { code: 4100 });
    return this.keys[this.index];
  }

  private accountFor(address: string): PrivateKeyAccount {
    if (!this.connected) throw Object.assign(new Error('Not connected'), { code: 4100 });
    if (this.smartAccount) {
      // The smart account signs through its owner, the active key.
      if (address.toLowerCase() !== this.smartAccount.address.toLowerCase()) throw Object.assign(new Error('Unknown or inactive account'), { code: 4100 });
      return this.accounts[this.index];
    }
    const account = this.accounts.find((a) => a.address.toLowerCase() === address.toLowerCase());
    if (!account || account !== this.accounts[this.index]) throw Object.assign(new Error('Unknown or inactive account'), { code: 4100 });
    return account;
  }
}

/** JSON carries uint256 as strings; viem signs bigints. */
function withBigInts(types: Record<string, Array<{ name: string; type: string }>>, type: string, value: unknown): unknown {
  if (type.endsWith('[]')) return Array.isArray(value) ? value.map((v) => withBigInts(types, type.slice(0, -2), v)) : value;
  if (types[type]) {
    const source = (value ?? {}) as Record<string, unknown>;
    return Object.fromEntries(types[type].map((f) => [f.name, withBigInts(types, f.type, source[f.name])]));
  }
  if (/^u?int\d*$/.test(type) && (typeof value === 'string' || typeof value === 'number')) return BigInt(value);
  return value;
}
