import { StrictMode, useEffect } from 'react';
import { RouterProvider } from 'react-router-dom';

import { platform } from '../lib/platform/index.ts';
import { AppProvider } from './provider.tsx';

type Router = Parameters<typeof RouterProvider>[0]['router'];

/**
 * The whole app around a router; the build-time prerender (app/prerender.tsx) renders this same tree.
 * `onCommitted` runs once the first render is in the page (for a prerendered page: hydrated, so its
 * buttons and links work).
 */
export function App({ router, onCommitted }: { router: Router; onCommitted?: () => void }) {
  // Desktop deep links (e-mail links, notifications) arrive as validated in-app paths.
  useEffect(() => platform.onNavigate((path) => void router.navigate(path)), [router]);
  useEffect(() => onCommitted?.(), [onCommitted]);
  return (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>
  );
}
