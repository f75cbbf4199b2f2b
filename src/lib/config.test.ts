import { describe, expect, it } from 'vitest';
import { buildConfig } from './config.ts';

describe('buildConfig', () => {
  it('defaults to the local service, every wallet, and the namefi header prefix', () => {
    const cfg = buildConfig({} as never);
    expect(cfg).toMatchObject({ apiBaseUrl: 'http://127.0.0.1:8787/v-next', headerPrefix: 'namefi', isLocalService: true, walletMode: 'all', includeLocalChain: true });
  });

  it('reads a production service from the environment, and a stored choice overrides it', () => {
    const env = { VITE_API_URL: 'https://api.namefi.io/v-next/', VITE_WALLETS: 'injected', VITE_RPC_1: 'https://rpc.example/1' } as never;
    expect(buildConfig(env)).toMatchObject({ apiBaseUrl: 'https://api.namefi.io/v-next', isLocalService: false, walletMode: 'injected', includeLocalChain: false });
    expect(buildConfig(env).rpcUrls[1]).toBe('https://rpc.example/1');
    expect(buildConfig(env, 'http://localhost:9000/v-next').isLocalService).toBe(true);
  });
});
