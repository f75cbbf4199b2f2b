import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Card } from '@/ui/index.ts';

/** Shown when a page fails to load or render: the header and the rest of the app stay usable. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error';
  return (
    <Card role="alert">
      <h1 className="text-lg font-semibold">This page could not be shown</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{message}</p>
      <div className="mt-3 flex gap-4 text-sm">
        <button type="button" className="font-medium text-brand-700 underline dark:text-brand-300" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="font-medium text-brand-700 underline dark:text-brand-300">
          Go to search
        </Link>
      </div>
    </Card>
  );
}
