import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Chain,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { LOCAL_CHAIN_ID } from './anvil.ts';
import { serialQueue } from '../support/serial-queue.ts';
import { crashPoint } from './crash-points.ts';

/**
 * Anvil's first dev account (from its public default mnemonic): deployer, minter and faucet of the local chain.
 * Publicly known and worthless off the dev chain; still never logged.
 */
const ANVIL_ACCOUNT_0_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

type ServiceWallet = WalletClient<Transport, Chain, Account>;

export interface ChainClients {
  chain: Chain;
  public: PublicClient<Transport, Chain>;
  /** Signs with the service's account. */
  wallet: ServiceWallet;
  /**
   * Runs one write after the previous one finished, so that concurrent writes of the service never race for a
   * nonce. `fn` should send and wait for its receipt.
   */
  serial<T>(fn: () => Promise<T>): Promise<T>;
  /** Sends a transaction built by `send` (in turn) and waits for it; throws when it reverted. */
  write(send: (wallet: ServiceWallet) => Promise<Hash>): Promise<TransactionReceipt>;
  /** Waits for a transaction's receipt (see `receiptOf`), at most `timeout` ms (180 s unless given). */
  receipt(hash: Hash, timeout?: number): Promise<TransactionReceipt>;
}

/**
 * anvil mining on every transaction can leave a ready one unmined until the next block (foundry-rs/foundry#10122):
 * a receipt not there after this long has a block mined for it.
 */
const MINE_AFTER_MS = 2000;

/**
 * The receipt of `hash`. Every MINE_AFTER_MS without it, a block is mined (`evm_mine`; a node without the method
 * refuses it, and the wait goes on), so a transaction the node left in its pool does not hold the service's writes,
 * which wait in line behind it, for minutes. Nothing is sent again: the same transaction is waited for.
 */
async function receiptOf(publicClient: PublicClient<Transport, Chain>, hash: Hash, timeout = 180_000): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = deadline - Date.now();
    try {
      return await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10, timeout: Math.max(1, Math.min(MINE_AFTER_MS, left)) });
    } catch (error) {
      if (!(error instanceof WaitForTransactionReceiptTimeoutError) || left <= MINE_AFTER_MS) throw error;
      await publicClient.request({ method: 'evm_mine' as never, params: [] as never }).catch(() => undefined);
    }
  }
}

function localChain(rpcUrl: string, chainId = LOCAL_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
    name: chainId === LOCAL_CHAIN_ID ? 'Anvil' : `Chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** Clients for a local chain at `rpcUrl`; the service signs with anvil's account 0 unless given another key. */
export function chainClients(options: { rpcUrl: string; chainId?: number; serviceKey?: Hash }): ChainClients {
  const chain = localChain(options.rpcUrl, options.chainId);
  // A local node mines on every transaction: poll fast rather than viem's default 4 s.
  const transport = http(options.rpcUrl, { retryCount: 1 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 25 });
  const wallet = createWalletClient({
    chain,
    transport,
    account: privateKeyToAccount(options.serviceKey ?? ANVIL_ACCOUNT_0_KEY),
    pollingInterval: 25,
  });
  const serial = serialQueue();
  return {
    chain,
    public: publicClient,
    wallet,
    serial,
    receipt: (hash, timeout) => receiptOf(publicClient, hash, timeout),
    write: (send) =>
      serial(async () => {
        const hash = await sendOwnNonce(() => send(wallet));
        const receipt = await receiptOf(publicClient, hash);
        if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
        // The kill -9 suite dies here: mined on the chain, the database transaction around it not committed.
        crashPoint('chain-write');
        return receipt;
      }),
  };
}

/** Tries when another process sending from the same account (an instance sharing the node) took the nonce first. */
const NONCE_TRIES = 8;

/**
 * Sends with the account's next nonce, read from the node at each try. The queue above orders this process's writes;
 * an instance sharing the node can still take the same nonce between the read and the send, and the node then
 * refuses one of the two: that one is sent again with a fresh nonce.
 */
async function sendOwnNonce(send: () => Promise<Hash>): Promise<Hash> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= NONCE_TRIES || !isNonceRace(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

function isNonceRace(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/nonce too low|nonce has already been used|replacement transaction underpriced|already known|nonce.*(lower|mismatch)/i.test(e.message)) return true;
  }
  return false;
}
