import { lazy, type ReactNode, Suspense, useState } from 'react';

import { ErrorBoundary } from '../components/errors/error-boundary.tsx';
import { useToast } from '../hooks/use-toast.ts';
import { AuthProvider } from '../lib/auth/auth-provider.tsx';
import { ThemeProvider } from '../lib/theme/theme-provider.tsx';

// The toast viewport (Radix) loads with the first toast, so first page loads do not carry it.
const Toaster = lazy(() => import('../components/ui/toaster.tsx').then((m) => ({ default: m.Toaster })));

function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  // Once loaded it stays mounted, so later toasts appear without a wait.
  if (toasts.length > 0 && !needed) {
    setNeeded(true);
  }
  return needed || toasts.length > 0 ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/** Theme, error boundary, session and toasts for every page; react-query lives in app/query-layout.tsx. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <ErrorBoundary>
        <AuthProvider>{children}</AuthProvider>
      </ErrorBoundary>
      <LazyToaster />
    </ThemeProvider>
  );
}
