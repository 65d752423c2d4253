import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';

import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { DashboardTopBar } from '../../../features/dashboard/components/dashboard-top-bar.tsx';
import { ProtectedRoute } from '../../../lib/auth/protected-route.tsx';

export function Component() {
  return (
    <ProtectedRoute>
      <div className="min-h-screen bg-background">
        <DashboardTopBar />
        <main className="mx-auto max-w-7xl px-4 pt-24 pb-16">
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </ProtectedRoute>
  );
}
