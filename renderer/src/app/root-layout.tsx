import { lazy, Suspense, useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';

import { ChatWidget } from '../features/chat/components/chat-widget.tsx';
import { useAuth } from '../lib/auth/auth-context.ts';

// Metrics are recorded for signed-in users only: the tracker loads with the first session.
const MetricsTracker = lazy(() =>
  import('../features/metrics/components/metrics-tracker.tsx').then((m) => ({ default: m.MetricsTracker })),
);

function LazyMetricsTracker() {
  const { session } = useAuth();
  const [needed, setNeeded] = useState(false);
  // Once loaded it stays mounted, so it sees the sign-out too (and clears the queue).
  if (session && !needed) {
    setNeeded(true);
  }
  return needed || session ? (
    <Suspense fallback={null}>
      <MetricsTracker />
    </Suspense>
  ) : null;
}

/** Wraps every page: the page itself, the floating support chat and scroll restoration. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ChatWidget />
      <LazyMetricsTracker />
      <ScrollRestoration />
    </>
  );
}
