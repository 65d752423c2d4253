import { Spinner } from '../../../components/ui/spinner.tsx';
import { ReportsPage } from '../../../features/reports/components/reports-page.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

export function Component() {
  useDocumentTitle('Security Reports');
  const { user } = useAuth();
  return user ? <ReportsPage userId={user.id} /> : <Spinner />;
}
