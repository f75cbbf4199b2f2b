import { lazy } from 'react';
import { Outlet, Route, Routes } from 'react-router';
import { withQueryClient } from '@/lib/query-client-loader.ts';
import SearchPage from '@/features/search/SearchPage.tsx';
import { Layout } from './Layout.tsx';
import { RouteErrorBoundary } from './RouteError.tsx';

// The home page is the search page: it comes with the shell, so the first paint after the static shell is the page
// itself, not a spinner. Every other page loads on first visit.
const CheckoutPage = lazy(withQueryClient(() => import('@/features/checkout/CheckoutPage.tsx')));
const OrdersPage = lazy(withQueryClient(() => import('@/features/orders/OrdersPage.tsx')));
const OrderPage = lazy(withQueryClient(() => import('@/features/orders/OrderPage.tsx')));
const DomainsPage = lazy(withQueryClient(() => import('@/features/domains/DomainsPage.tsx')));
const DomainRoute = lazy(withQueryClient(() => import('./DomainRoute.tsx')));
const SettingsPage = lazy(withQueryClient(() => import('@/features/settings/SettingsPage.tsx')));
const AgentSignPage = lazy(withQueryClient(() => import('@/features/agent-sign/AgentSignPage.tsx')));
const NotFound = lazy(() => import('./NotFound.tsx'));

/**
 * A URL for every view. Declarative routes (no data router: no page uses loaders or actions), which keeps about
 * 16 kB gzip of react-router off the first page.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes>
        <Route element={<Layout />}>
          <Route
            element={
              <RouteErrorBoundary>
                <Outlet />
              </RouteErrorBoundary>
            }
          >
            <Route index element={<SearchPage />} />
            <Route path="search" element={<SearchPage />} />
            <Route path="checkout/:domain" element={<CheckoutPage />} />
            <Route path="orders" element={<OrdersPage />} />
            <Route path="orders/:orderId" element={<OrderPage />} />
            <Route path="domains" element={<DomainsPage />} />
            <Route path="domains/:domain" element={<DomainRoute />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="agent-sign" element={<AgentSignPage />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}
