import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

import { ErrorBoundary } from '../components/errors/error-boundary.tsx';
import { Toaster } from '../components/ui/toaster.tsx';
import { AuthProvider } from '../lib/auth/auth-provider.tsx';
import { ThemeProvider } from '../lib/theme/theme-provider.tsx';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  return (
    <ThemeProvider>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>{children}</AuthProvider>
        </QueryClientProvider>
      </ErrorBoundary>
      <Toaster />
    </ThemeProvider>
  );
}
