// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore, loadSession, type StoredSession } from './session-store.ts';

const SERVICE = 'http://127.0.0.1:8787/v-next';
const session = (over: Partial<StoredSession> = {}): StoredSession => ({
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId: 31337,
  token: 'tok',
  expiresAt: Date.now() + 60_000,
  apiBaseUrl: SERVICE,
  ...over,
});

describe('the stored session', () => {
  beforeEach(() => localStorage.clear());

  it('survives a reload (a new store reads it back)', () => {
    createSessionStore(SERVICE).start(session());
    expect(createSessionStore(SERVICE).get().session?.token).toBe('tok');
  });

  it('is not restored once expired, nor for another service', () => {
    createSessionStore(SERVICE).start(session({ expiresAt: Date.now() - 1 }));
    expect(loadSession(SERVICE)).toBeUndefined();
    createSessionStore(SERVICE).start(session());
    expect(loadSession('https://api.namefi.io/v-next')).toBeUndefined();
  });

  it('ends with a reason and forgets the token', () => {
    const store = createSessionStore(SERVICE);
    store.start(session());
    store.end('signed-out');
    expect(store.get()).toMatchObject({ session: undefined, ended: { reason: 'signed-out' } });
    expect(createSessionStore(SERVICE).get().session).toBeUndefined();
  });
});
