import { SecurityAutomationPage } from '../../../features/scanning/components/security-automation-page.tsx';
import type { ScanTargetOption } from '../../../features/scanning/lib/targets.ts';
import { useTargets } from '../../../features/targets/api/get-targets.ts';
import { TargetsPanel } from '../../../features/targets/components/targets-panel.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';

const kinds = new Set(['url', 'host', 'api']);

/** /dashboard/security-automation: the scanners, composed with the user's targets. */
export function Component() {
  useDocumentTitle('Security Automation');
  const { user } = useAuth();
  const targets = useTargets(user?.id);
  const options: ScanTargetOption[] = (targets.data ?? [])
    .filter((t) => kinds.has(t.kind))
    .map((t) => ({
      id: t.id,
      kind: t.kind as ScanTargetOption['kind'],
      value: t.value,
      verified: Boolean(t.verified_at),
    }));
  return (
    <SecurityAutomationPage
      userId={user?.id}
      targets={options}
      targetsPanel={user ? <TargetsPanel userId={user.id} /> : null}
    />
  );
}
