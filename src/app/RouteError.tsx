import { Component, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Card } from '@/ui/index.ts';

/** Shown when a page fails to load or render: the header and the rest of the app stay usable. */
function RouteError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Unknown error';
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

interface BoundaryState {
  error?: { value: unknown; pathname: string };
}

class Boundary extends Component<{ pathname: string; children: ReactNode }, BoundaryState> {
  state: BoundaryState = {};

  static getDerivedStateFromError(value: unknown) {
    return { error: { value, pathname: '' } };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): BoundaryState | null {
    if (!state.error) return null;
    // Remember where it failed; leaving that page clears the error.
    if (state.error.pathname === '') return { error: { ...state.error, pathname: props.pathname } };
    return state.error.pathname === props.pathname ? null : { error: undefined };
  }

  render() {
    return this.state.error ? <RouteError error={this.state.error.value} /> : this.props.children;
  }
}

/** A render or lazy-load failure below shows RouteError in place, until the person goes to another URL. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary pathname={useLocation().pathname}>{children}</Boundary>;
}
