import type { Wallet } from '@rainbow-me/rainbowkit';
import { createConnector } from 'wagmi';
import { safe } from 'wagmi/connectors';

/** Whether the page runs inside another page's frame: the only place Safe{Wallet} opens a Safe App. */
export function inFrame(): boolean {
  return typeof window !== 'undefined' && window.parent !== window;
}

/** How long the Safe connector waits for the host's answer to getSafeInfo; wagmi's 10 ms is tight on a busy laptop. */
const SAFE_INFO_TIMEOUT_MS = 1_000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const ICON =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect width="28" height="28" rx="6" fill="#12ff80"/><text x="14" y="19" font-size="13" font-family="sans-serif" text-anchor="middle" fill="#000">S</text></svg>');

/**
 * The dashboard as a Safe App: wagmi's `safe` connector (Safe Apps SDK over postMessage) answering only the hosts
 * allowed to frame it. Listed and connected only inside a frame; it connects without a prompt (start-up
 * reconnection asks it like an injected wallet), and every signature is the Safe's, made by its owners in the host.
 * The SDK and provider load with the connector, inside the lazily loaded wallet layer.
 */
export function safeAppWallet(origins: readonly string[]): () => Wallet {
  const allowedDomains = origins.map((origin) => new RegExp(`^${escapeRegExp(origin)}$`));
  return () => ({
    id: 'safe',
    name: 'Safe',
    iconUrl: ICON,
    iconBackground: '#12ff80',
    installed: inFrame(),
    createConnector: (details) =>
      createConnector((config) => ({ ...safe({ allowedDomains, unstable_getInfoTimeout: SAFE_INFO_TIMEOUT_MS })(config), ...details })),
  });
}
