import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '@/lib/query-client.ts';
import { ToastProvider } from '@/ui/index.ts';
import { ThemeProvider } from '@/ui/theme.tsx';

const queryClient = createQueryClient();

/** The shell's providers. The wallet stack is not here: it is an island the layout loads on demand. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider>{children}</ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
