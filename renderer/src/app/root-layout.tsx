import { Outlet, ScrollRestoration } from 'react-router-dom';

import { ChatWidget } from '../features/chat/components/chat-widget.tsx';
import { MetricsTracker } from '../features/metrics/components/metrics-tracker.tsx';

/** Wraps every page: the page itself, the floating support chat and scroll restoration. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ChatWidget />
      <MetricsTracker />
      <ScrollRestoration />
    </>
  );
}
