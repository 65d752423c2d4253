// Pathless layout route around every page but the landing: the react-query client lives here, so the
// landing page (prerendered and hydrated first) does not load react-query at all.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Outlet } from 'react-router-dom';

import { useAuth } from '../lib/auth/auth-context.ts';

// One client for the whole visit: leaving for the landing page and coming back keeps the cache.
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
});

/** Sign-out or another account signing in: nothing cached for the previous user may be shown. */
function ClearCacheOnUserChange() {
  const userId = useAuth().user?.id ?? null;
  const previous = useRef(userId);
  useEffect(() => {
    if (previous.current !== userId) {
      if (previous.current !== null) {
        queryClient.clear();
      }
      previous.current = userId;
    }
  }, [userId]);
  return null;
}

export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <ClearCacheOnUserChange />
      <Outlet />
    </QueryClientProvider>
  );
}
