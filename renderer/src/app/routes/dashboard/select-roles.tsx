// /dashboard/select-roles is open to visitors (docs/product.md §6): signed in it wears the dashboard chrome,
// signed out a public header; the page itself sends a visitor's checkout to /auth.
import { ArrowLeft, Shield } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Button } from '../../../components/ui/button.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { SelectRolesPage } from '../../../features/agents/components/select-roles-page.tsx';
import { DashboardTopBar } from '../../../features/dashboard/components/dashboard-top-bar.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

function VisitorHeader() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold">
          <Shield className="size-6 text-primary" aria-hidden /> Vigil
        </Link>
        <Button variant="ghost" size="sm" asChild>
          <Link to="/">
            <ArrowLeft aria-hidden /> Back to Home
          </Link>
        </Button>
      </div>
    </header>
  );
}

export function Component() {
  useDocumentTitle('Activate Security Agents');
  const { session, loading } = useAuth();
  if (loading) {
    return <FullPageSpinner />;
  }
  return (
    <div className="min-h-screen bg-background">
      {session ? <DashboardTopBar /> : <VisitorHeader />}
      <main className="mx-auto max-w-7xl px-4 pt-24 pb-16">
        <SelectRolesPage />
      </main>
    </div>
  );
}
