import { Clock, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { useActiveScans } from '../api/get-active-scans.ts';
import { useScanChanges } from '../hooks/use-scan-changes.ts';
import { SCANNERS } from '../lib/scanners.ts';
import type { ScanTargetOption } from '../lib/targets.ts';
import { RecentScans } from './recent-scans.tsx';
import { ScannerCard } from './scanner-card.tsx';

interface Props {
  userId: string | undefined;
  targets: readonly ScanTargetOption[];
  /** The targets panel, composed in by the route. */
  targetsPanel?: ReactNode;
}

/** /dashboard/security-automation (docs/product.md §2): the three scanners, targets and the latest scans. */
export function SecurityAutomationPage({ userId, targets, targetsPanel }: Props) {
  // The page listens unfiltered and polls while any scan is active (docs/product.md §4).
  useScanChanges(userId);
  const active = useActiveScans(userId);
  const running = active.data?.length ?? 0;
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold">Security Automation</h1>
        <p className="text-muted-foreground">Manage automated security testing and remediation</p>
      </div>
      {!userId ? (
        <Alert variant="warning">
          <TriangleAlert aria-hidden />
          <AlertTitle>You are not signed in</AlertTitle>
          <AlertDescription>
            Sign in to initialize the scanners and run security scans of your systems.
          </AlertDescription>
        </Alert>
      ) : null}
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
        Scans run automatically every 24 hours and can also be triggered manually.
        {running > 0 ? ` ${running} scan${running === 1 ? '' : 's'} running now.` : ''}
      </p>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {SCANNERS.map((scanner) => (
          <ScannerCard key={scanner.type} scanner={scanner} userId={userId} targets={targets} />
        ))}
      </div>
      {userId ? targetsPanel : null}
      {userId ? <RecentScans userId={userId} /> : null}
    </div>
  );
}
