import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';

import { AppProvider } from './provider.tsx';
import { createRouter } from './router.tsx';

export function App() {
  const [router] = useState(createRouter);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
