import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './Layout.tsx';
import { RouteError } from './RouteError.tsx';

const SearchPage = lazy(() => import('@/features/search/SearchPage.tsx'));
const CheckoutPage = lazy(() => import('@/features/checkout/CheckoutPage.tsx'));
const OrdersPage = lazy(() => import('@/features/orders/OrdersPage.tsx'));
const OrderPage = lazy(() => import('@/features/orders/OrderPage.tsx'));
const DomainsPage = lazy(() => import('@/features/domains/DomainsPage.tsx'));
const DomainRoute = lazy(() => import('./DomainRoute.tsx'));
const SettingsPage = lazy(() => import('@/features/settings/SettingsPage.tsx'));
const NotFound = lazy(() => import('./NotFound.tsx'));

/** A URL for every view; each page loads on first visit. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <SearchPage /> },
          { path: 'search', element: <SearchPage /> },
          { path: 'checkout/:domain', element: <CheckoutPage /> },
          { path: 'orders', element: <OrdersPage /> },
          { path: 'orders/:orderId', element: <OrderPage /> },
          { path: 'domains', element: <DomainsPage /> },
          { path: 'domains/:domain', element: <DomainRoute /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
