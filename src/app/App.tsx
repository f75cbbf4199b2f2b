import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { Providers } from './providers.tsx';
import { AppRoutes } from './routes.tsx';

/**
 * The whole dashboard. In the page it follows the browser's address; the build pre-renders the home page from the
 * same tree under a router fixed at that address (src/app/prerender.tsx), which keeps the server-side router out of the
 * page's own bundle.
 */
export function App({ Router = BrowserRouter }: { Router?: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <Providers>
        <Router>
          <AppRoutes />
        </Router>
      </Providers>
    </StrictMode>
  );
}
