import { QueryClientContext } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { queryClientStore } from '@/lib/query-client-loader.ts';
import { ToastProvider } from '@/ui/index.ts';
import { ThemeProvider } from '@/ui/theme.tsx';

const noClient = () => undefined;

/**
 * The shell's providers. The wallet stack is not here: it is an island the layout loads on demand. The query cache
 * is not in the first page either: it loads with the first part that needs it (src/lib/query-client-loader.ts), and
 * is handed to the tree from then on; no part that reads it renders before (withQueryClient).
 */
export function Providers({ children }: { children: ReactNode }) {
  const client = useSyncExternalStore(queryClientStore.subscribe, queryClientStore.get, noClient);
  // What QueryClientProvider does: the cache follows the window's focus and the network while the app is mounted.
  useEffect(() => {
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  return (
    <QueryClientContext.Provider value={client}>
      <ThemeProvider>
        <ToastProvider>{children}</ToastProvider>
      </ThemeProvider>
    </QueryClientContext.Provider>
  );
}
