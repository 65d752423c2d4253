import { AgentsPage } from '../../../features/agents/components/agents-page.tsx';
import { useSubscriptionChanges } from '../../../features/billing/hooks/use-subscription-changes.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

export function Component() {
  useDocumentTitle('AI Security Agents');
  const { user } = useAuth();
  useSubscriptionChanges(user?.id);
  return <AgentsPage />;
}
