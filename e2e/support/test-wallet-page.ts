/**
 * The in-page half of the test wallet: a thin EIP-1193 provider that forwards every request to Node
 * (window.__testWalletRequest, exposed by the fixture) and re-emits the events Node sends. Installed with
 * page.addInitScript, so it runs before the dashboard on every navigation. It holds no key.
 */
export function installTestWalletProvider(info: { uuid: string; name: string; icon: string; rdns: string }): void {
  type Listener = (...args: unknown[]) => void;
  const listeners = new Map<string, Set<Listener>>();
  type Bridge = (method: string, params: unknown) => Promise<{ ok: true; result: unknown } | { ok: false; error: { code: number; message: string } }>;
  const w = window as unknown as { __testWalletRequest: Bridge; __testWallet: unknown; ethereum: unknown };

  const provider = {
    isTestWallet: true,
    async request({ method, params }: { method: string; params?: unknown }) {
      const answer = await w.__testWalletRequest(method, params ?? []);
      if (answer.ok) return answer.result;
      const error = new Error(answer.error.message) as Error & { code: number };
      error.code = answer.error.code;
      throw error;
    },
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return provider;
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of Array.from(listeners.get(event) ?? [])) listener(...args);
      return true;
    },
  };
  w.__testWallet = provider;
  w.ethereum = provider;

  const detail = Object.freeze({ info: Object.freeze({ ...info }), provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
}
