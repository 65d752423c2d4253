import { AlertsPage } from '../../../features/alerts/components/alerts-page.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

/** /dashboard/alerts: open security events, ML insights and recommendations, each opening its findings. */
export function Component() {
  useDocumentTitle('Security Alerts');
  const { user } = useAuth();
  return user ? <AlertsPage userId={user.id} /> : null;
}
