import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';

import { platform } from '../lib/platform/index.ts';
import { AppProvider } from './provider.tsx';
import { createRouter } from './router.tsx';

export function App() {
  const [router] = useState(createRouter);
  // Desktop deep links (e-mail links, notifications) arrive as validated in-app paths.
  useEffect(() => platform.onNavigate((path) => void router.navigate(path)), [router]);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
