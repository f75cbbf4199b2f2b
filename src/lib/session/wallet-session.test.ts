// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setDelegatedAccount } from '../settings/settings-store.ts';
import {
  createWalletSessionStore,
  loadSession,
  phaseOf,
  requestSignIn,
  SignInCancelledError,
  walletSession,
  type StoredSession,
  type WalletSessionState,
} from './wallet-session.ts';
import { config } from '../config.ts';

const SERVICE = 'http://127.0.0.1:8787/v-next';
const wallet = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const session = (over: Partial<StoredSession> = {}): StoredSession => ({
  address: wallet,
  chainId: 31337,
  token: 'tok',
  expiresAt: Date.now() + 60_000,
  apiBaseUrl: SERVICE,
  ...over,
});

describe('the stored session', () => {
  beforeEach(() => localStorage.clear());

  it('survives a reload (a new store reads it back)', () => {
    createWalletSessionStore(SERVICE).getState().startSession(session());
    expect(createWalletSessionStore(SERVICE).getState().session?.token).toBe('tok');
  });

  it('loads a session stored before this store existed (same key, same shape)', () => {
    localStorage.setItem('namefi.dashboard.session', JSON.stringify(session({ token: 'from-before' })));
    expect(createWalletSessionStore(SERVICE).getState().session?.token).toBe('from-before');
  });

  it('is not restored once expired, nor for another service', () => {
    createWalletSessionStore(SERVICE).getState().startSession(session({ expiresAt: Date.now() - 1 }));
    expect(loadSession(SERVICE)).toBeUndefined();
    createWalletSessionStore(SERVICE).getState().startSession(session());
    expect(loadSession('https://api.namefi.io/v-next')).toBeUndefined();
  });

  it('ends with a reason and forgets the token', () => {
    const store = createWalletSessionStore(SERVICE);
    store.getState().startSession(session());
    store.getState().endSession('signed-out');
    expect(store.getState()).toMatchObject({ session: undefined, ended: { reason: 'signed-out' } });
    expect(createWalletSessionStore(SERVICE).getState().session).toBeUndefined();
  });

  it('forgets why the last one ended once signed in again', () => {
    const store = createWalletSessionStore(SERVICE);
    store.getState().startSession(session());
    store.getState().endSession('expired');
    store.getState().startSession(session());
    expect(store.getState().ended).toBeUndefined();
  });
});

describe('the phase of the wallet session', () => {
  const now = 1_000_000;
  type PhaseState = Parameters<typeof phaseOf>[0];
  const connected: PhaseState = { account: { status: 'connected', address: wallet, chainId: 31337 }, signInPending: false, modalOpen: false, allowedChains: [31337] };
  const live = session({ expiresAt: now + 1 });
  const none = {};

  it('is disconnected without a wallet, whatever else is stored', () => {
    expect(phaseOf({ ...connected, account: { status: 'disconnected' }, session: live }, none, now)).toBe('disconnected');
    expect(phaseOf({ ...connected, account: { status: 'reconnecting' } }, none, now)).toBe('disconnected');
  });

  it('is connected with a wallet and no session', () => {
    expect(phaseOf(connected, none, now)).toBe('connected');
    expect(phaseOf({ ...connected, allowedChains: undefined }, none, now)).toBe('connected');
  });

  it('is signed in with a live session of this wallet and setting, on any network', () => {
    expect(phaseOf({ ...connected, session: live }, none, now)).toBe('signed-in');
    expect(phaseOf({ ...connected, session: live, account: { ...connected.account, chainId: 1 } }, none, now)).toBe('signed-in');
  });

  it('is not signed in with a session of another wallet or another account to act for', () => {
    expect(phaseOf({ ...connected, session: session({ address: other, expiresAt: now + 1 }) }, none, now)).toBe('connected');
    expect(phaseOf({ ...connected, session: live }, { delegated: { address: other, kind: 'erc1271' } }, now)).toBe('connected');
    expect(phaseOf({ ...connected, session: { ...live, address: other, signer: wallet } }, { delegated: { address: other, kind: 'erc1271' } }, now)).toBe('signed-in');
  });

  it('is the wrong network when the wallet is on a chain the service refuses for sign-in', () => {
    expect(phaseOf({ ...connected, account: { ...connected.account, chainId: 1 } }, none, now)).toBe('wrong-network');
    expect(phaseOf({ ...connected, account: { ...connected.account, chainId: 1 }, modalOpen: true }, none, now)).toBe('wrong-network');
  });

  it('is signing in while a request waits or the modal is open', () => {
    expect(phaseOf({ ...connected, signInPending: true }, none, now)).toBe('signing-in');
    expect(phaseOf({ ...connected, modalOpen: true }, none, now)).toBe('signing-in');
  });

  it('is expired when the session ran out, before and after it is ended', () => {
    expect(phaseOf({ ...connected, session: session({ expiresAt: now }) }, none, now)).toBe('expired');
    expect(phaseOf({ ...connected, ended: { reason: 'expired', at: now } }, none, now)).toBe('expired');
    expect(phaseOf({ ...connected, ended: { reason: 'signed-out', at: now } }, none, now)).toBe('connected');
  });
});

describe('requestSignIn', () => {
  const initial = walletSession.getState();
  const set = (partial: Partial<WalletSessionState>) => walletSession.setState(partial);
  const connect = () => set({ account: { status: 'connected', address: wallet, chainId: 31337 } });
  const signIn = () => walletSession.getState().startSession(session({ apiBaseUrl: config.apiBaseUrl }));

  beforeEach(() => localStorage.clear());
  afterEach(() => {
    walletSession.setState(initial, true);
    setDelegatedAccount(undefined);
  });

  it('resolves at once with a session that fits, asking for nothing', async () => {
    connect();
    signIn();
    await expect(requestSignIn()).resolves.toMatchObject({ token: 'tok' });
    expect(walletSession.getState()).toMatchObject({ signInPending: false });
  });

  it('otherwise wants the island, asks for the modal and resolves once signed in', async () => {
    const signedIn = requestSignIn();
    expect(walletSession.getState()).toMatchObject({ islandWanted: true, signInPending: true });
    set({ signInPending: false, modalOpen: true });
    connect();
    signIn();
    await expect(signedIn).resolves.toMatchObject({ address: wallet, token: 'tok' });
  });

  it('withdraws its request for the modal when a fitting session arrives before the modal opened', async () => {
    const signedIn = requestSignIn();
    connect();
    signIn();
    await expect(signedIn).resolves.toMatchObject({ token: 'tok' });
    // Otherwise a later sign-out would open the sign-in modal unasked.
    expect(walletSession.getState().signInPending).toBe(false);
  });

  it('rejects with SignInCancelledError when the modal closes without a session', async () => {
    connect();
    const signedIn = requestSignIn();
    set({ modalOpen: true });
    set({ modalOpen: false });
    await expect(signedIn).rejects.toBeInstanceOf(SignInCancelledError);
  });

  it('waits for a session of the account to act for, not just any session', async () => {
    connect();
    setDelegatedAccount({ address: other, kind: 'erc1271' });
    let settled = false;
    const signedIn = requestSignIn().finally(() => (settled = true));
    set({ modalOpen: true });
    signIn();
    await Promise.resolve();
    expect(settled).toBe(false);
    walletSession.getState().startSession(session({ address: other, signer: wallet, apiBaseUrl: config.apiBaseUrl }));
    await expect(signedIn).resolves.toMatchObject({ address: other, signer: wallet });
  });
});
