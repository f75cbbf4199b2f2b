import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { payloadTypeOf } from '#core/eip712/envelope.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY } from '#core/eip712/registry.ts';
import type { OperationId } from '#core/operations/index.ts';
import { ToastProvider } from '@/ui/index.ts';

/** Test helpers for components that talk to the service: its answers at the network edge, and the app's providers. */

/** A JSON answer as the service sends it. */
export const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/**
 * `GET /eip712/types-for-method` for `method` as a service answers it: production, which does not offer it (and lists
 * what it has instead), or this project's service, with the registry's types.
 */
export function typesForMethodAnswer(method: OperationId, offered: boolean) {
  if (!offered) return { found: false, acceptedPrimaryTypes: [], types: {}, availableMethods: ['toggleDomainParking'] };
  const accepted = ACCEPTED_PRIMARY_TYPES[method] ?? [];
  const names = accepted.flatMap((primary) => [primary, payloadTypeOf(primary)]);
  const registry = TYPE_REGISTRY as Record<string, unknown>;
  return { found: true, acceptedPrimaryTypes: accepted, types: Object.fromEntries(names.filter((n) => registry[n]).map((n) => [n, registry[n]])) };
}

/** Renders `ui` as the app does: a query client of its own (no retries) and the toasts. */
export function renderWithQueries(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ToastProvider>{ui}</ToastProvider>
    </QueryClientProvider>,
  );
}
