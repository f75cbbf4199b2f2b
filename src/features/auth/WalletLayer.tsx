import '@rainbow-me/rainbowkit/styles.css';
import { memo } from 'react';
import { createPortal } from 'react-dom';
import { WagmiProvider } from 'wagmi';
import { useStore } from 'zustand';
import { config } from '@/lib/config.ts';
import { createWagmiConfig } from '@/lib/wallet/wagmi-config.ts';
import { walletSlots } from '@/lib/wallet/slots.ts';
import { useTheme } from '@/ui/index.ts';
import { AuthProvider } from './AuthProvider.tsx';
import { ChainGuard } from './ChainGuard.tsx';
import { HostMismatchNotice } from './HostMismatchNotice.tsx';
import { SessionControls } from './SessionControls.tsx';
import { SessionNotice } from './SessionNotice.tsx';

const wagmiConfig = createWagmiConfig(config);

/** Everything inside the island that follows the shell (theme, slots) re-renders here, below WagmiProvider. */
function IslandContent() {
  const slots = useStore(walletSlots);
  const { theme } = useTheme();
  return (
    <AuthProvider theme={theme}>
      {slots.header ? createPortal(<SessionControls />, slots.header) : null}
      {slots.notices
        ? createPortal(
            <>
              <ChainGuard />
              <HostMismatchNotice />
              <SessionNotice />
            </>,
            slots.notices,
          )
        : null}
    </AuthProvider>
  );
}

/**
 * The wallet island: wagmi, RainbowKit and the SIWE adapter, loaded on demand (see lib/session/wallet-session.ts).
 * It renders into the shell's header and notice slots through portals, inside the shell's query client,
 * router, theme and toasts. WagmiProvider must never re-render: with reconnectOnMount={false} its
 * Hydrate step clears the live connections on every render. Hence memo() and no props.
 */
function WalletLayer() {
  return (
    // Reconnection at start-up is ours (AuthProvider): wagmi's own would load every wallet SDK.
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <IslandContent />
    </WagmiProvider>
  );
}

export default memo(WalletLayer);
