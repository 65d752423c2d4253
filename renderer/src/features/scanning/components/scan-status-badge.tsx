import { Badge } from '../../../components/ui/badge.tsx';
import type { ScanStatus } from '../lib/scan-status.ts';

const labels: Record<ScanStatus, string> = {
  queued: 'Queued',
  in_progress: 'Scanning',
  completed: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
};

export function ScanStatusBadge({ status }: { status: ScanStatus }) {
  const variant =
    status === 'failed'
      ? 'destructive'
      : status === 'completed'
        ? 'success'
        : status === 'stopped'
          ? 'outline'
          : 'secondary';
  return <Badge variant={variant}>{labels[status]}</Badge>;
}
