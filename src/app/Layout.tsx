import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { RefCallback, RefObject } from 'react';
import { NavLink, Outlet } from 'react-router';
import { endSession, useWalletSession, useWalletSessionState } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { withQueryClient } from '@/lib/query-client-loader.ts';
import { walletSlots } from '@/lib/wallet/slots.ts';
import { Button, cx, IconButton, Spinner } from '@/ui/index.ts';
import { ThemeToggle } from './ThemeToggle.tsx';
import { WalletPlaceholder } from './WalletPlaceholder.tsx';

const BalanceBadge = lazy(withQueryClient(() => import('@/features/balance/BalanceBadge.tsx')));
const PendingOrdersWatcher = lazy(withQueryClient(() => import('@/features/orders/PendingOrdersWatcher.tsx')));
// The wallet island (wagmi, RainbowKit, SIWE): loaded when wanted, see lib/session/wallet-session.ts.
const WalletLayer = lazy(withQueryClient(() => import('@/features/auth/WalletLayer.tsx')));

const nav = [
  { to: '/search', label: 'Search' },
  { to: '/domains', label: 'Domains' },
  { to: '/orders', label: 'Orders' },
  { to: '/settings', label: 'Settings' },
];

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return nav.map((item) => (
    <NavLink
      key={item.to}
      to={item.to}
      onClick={onNavigate}
      className={({ isActive }) =>
        cx(
          'rounded-lg px-3 py-2 text-sm font-medium',
          isActive
            ? 'bg-brand-50 text-brand-800 dark:bg-slate-800 dark:text-brand-300'
            : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
        )
      }
    >
      {item.label}
    </NavLink>
  ));
}

// Stable ref callbacks: a new function each render would detach and re-attach the slot, remounting
// the island's portal content every time the layout renders.
const headerSlotRef: RefCallback<HTMLDivElement> = (header) => walletSlots.setState((s) => (s.header === header ? s : { header }));
const noticesSlotRef: RefCallback<HTMLDivElement> = (notices) => walletSlots.setState((s) => (s.notices === notices ? s : { notices }));

function PageFallback() {
  return (
    <div className="flex justify-center py-16">
      <Spinner size="lg" label="Loading page" />
    </div>
  );
}

/** Whether a popover is open, following the browser's toggle events (it may have been opened before hydration). */
function usePopoverOpen(ref: RefObject<HTMLElement | null>): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const follow = () => setOpen(element.matches(':popover-open'));
    follow();
    element.addEventListener('toggle', follow);
    return () => element.removeEventListener('toggle', follow);
  }, [ref]);
  return open;
}

export function Layout() {
  const session = useWalletSession();
  const islandWanted = useWalletSessionState((s) => s.islandWanted);
  const islandReady = useWalletSessionState((s) => !!s.wagmiConfig);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuOpen = usePopoverOpen(menuRef);
  const closeMenu = () => {
    if (menuRef.current?.matches(':popover-open')) menuRef.current.hidePopover();
  };
  // The order watcher follows orders only for an account that can read them (a session or an API key); without one it
  // has nothing to do, so a first visit neither downloads nor runs the orders code (half the first page's work again).
  const apiKey = useSettings().apiKey;
  const canReadOrders = session.status === 'signed-in' || !!apiKey;
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        {/* One row at every width: on a phone the balance, theme and sign-out move into the menu. */}
        <div className="mx-auto flex max-w-6xl items-center gap-2 px-3 py-2 sm:gap-3 sm:px-4 sm:py-3">
          <NavLink to="/" className="shrink-0 text-lg font-bold tracking-tight text-brand-800 dark:text-brand-300">
            Namefi
          </NavLink>
          <nav aria-label="Main" className="hidden gap-1 md:flex">
            <NavLinks />
          </nav>
          <div className="ml-auto flex min-w-0 items-center gap-2">
            {session.status === 'signed-in' ? (
              <span className="hidden sm:contents">
                <Suspense fallback={null}>
                  <BalanceBadge />
                </Suspense>
              </span>
            ) : null}
            <div ref={headerSlotRef} className="contents">
              {islandReady ? null : <WalletPlaceholder loading={islandWanted} />}
            </div>
            <span className="hidden sm:contents">
              <ThemeToggle />
            </span>
            {/* A native popover: the button opens it before React has taken the page over (the home page arrives
                pre-rendered), by keyboard too, and a tap outside or Escape closes it; the browser tells assistive
                technology whether it is open. */}
            <IconButton label="Menu and account" popoverTarget="phone-menu" aria-controls="phone-menu" className="shrink-0 md:hidden">
              <span aria-hidden="true">☰</span>
            </IconButton>
          </div>
        </div>
        <div
          id="phone-menu"
          ref={menuRef}
          popover="auto"
          className="fixed inset-x-0 top-14 m-0 max-h-[calc(100dvh-3.5rem)] w-full overflow-auto border-y border-slate-200 bg-white px-4 py-2 text-slate-900 shadow-lg md:hidden dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100"
        >
          <nav aria-label="Main" className="flex flex-col gap-1">
            <NavLinks onNavigate={closeMenu} />
          </nav>
          <div className="mt-2 flex flex-wrap items-center gap-2 border-t border-slate-200 pt-2 sm:hidden dark:border-slate-800" aria-label="Account" role="group">
            {/* Filled only while the menu is open: closed, it would be a second balance, theme switch and sign-in
                state in the page (hidden, but still there for a search of the page's text). */}
            {!menuOpen ? null : session.status === 'signed-in' ? (
              <>
                <Suspense fallback={null}>
                  <BalanceBadge />
                </Suspense>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    endSession('signed-out');
                    closeMenu();
                  }}
                >
                  Sign out
                </Button>
              </>
            ) : (
              <span className="text-sm text-slate-600 dark:text-slate-400">Not signed in</span>
            )}
            {menuOpen ? (
              <span className="ml-auto">
                <ThemeToggle />
              </span>
            ) : null}
          </div>
        </div>
      </header>
      <div
        ref={noticesSlotRef}
        className="mx-auto max-w-6xl space-y-3 px-4 pt-4 empty:hidden"
      />
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      {canReadOrders ? (
        <Suspense fallback={null}>
          <PendingOrdersWatcher />
        </Suspense>
      ) : null}
      {islandWanted ? (
        <Suspense fallback={null}>
          <WalletLayer />
        </Suspense>
      ) : null}
    </div>
  );
}
