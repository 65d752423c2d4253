// Pure rules of the scan status (docs/product.md §4, §8, §9): which toast a status change shows, its variant,
// whether a scan is still active (poll every 5 s), and the live progress read from scan_results.progress.
import * as z from 'zod/mini';

export type ScanStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'stopped';
export type ScanSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info' | 'none';

export interface ToastSpec {
  title: string;
  description: string;
  variant: 'default' | 'destructive';
}

/** A scan counts as active (polled, stoppable) while it is queued or in progress. */
export function isActive(status: ScanStatus | null | undefined): boolean {
  return status === 'queued' || status === 'in_progress';
}

/** Critical and high findings make the completion toast destructive. */
export function severityVariant(severity: ScanSeverity | null | undefined): 'default' | 'destructive' {
  return severity === 'critical' || severity === 'high' ? 'destructive' : 'default';
}

const severityText: Record<ScanSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Informational',
  none: 'None',
};

export function severityLabel(severity: ScanSeverity | null | undefined): string {
  return severityText[severity ?? 'none'];
}

/**
 * The toast for one change of a scan's status, or null. Only a scan the page saw running (queued or
 * in progress) that then completes gets the completion toast; a first load of a finished scan does not.
 */
export function completionToast(
  previous: ScanStatus | null | undefined,
  next: { status: ScanStatus; severity_level: ScanSeverity },
  scannerName: string,
): ToastSpec | null {
  if (!isActive(previous) || next.status !== 'completed') {
    return null;
  }
  return {
    title: 'Scan Completed',
    description: `${scannerName} finished. Severity level: ${severityLabel(next.severity_level)}.`,
    variant: severityVariant(next.severity_level),
  };
}

/** "1h 02m", "3m 05s", "42s"; "—" before an estimate exists. */
export function formatEta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    return '—';
  }
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  if (hours > 0) {
    return `${hours}h ${String(minutes).padStart(2, '0')}m`;
  }
  if (minutes > 0) {
    return `${minutes}m ${String(secs).padStart(2, '0')}s`;
  }
  return `${secs}s`;
}

const progressSchema = z.object({
  phase: z.optional(z.string()),
  percent: z.optional(z.number()),
  requestsPerSecond: z.optional(z.number()),
  etaSeconds: z.optional(z.nullable(z.number())),
});

export interface ScanProgress {
  phase: string;
  /** 0..100, clamped */
  percent: number;
  requestsPerSecond: number | null;
  etaSeconds: number | null;
}

/** The worker's progress JSON, tolerating a row written before any progress (or by an older worker). */
export function parseProgress(value: unknown): ScanProgress {
  const parsed = progressSchema.safeParse(value);
  const p = parsed.success ? parsed.data : {};
  const percent =
    typeof p.percent === 'number' && Number.isFinite(p.percent) ? Math.min(100, Math.max(0, p.percent)) : 0;
  return {
    phase: p.phase ?? 'queued',
    percent,
    requestsPerSecond: p.requestsPerSecond ?? null,
    etaSeconds: p.etaSeconds ?? null,
  };
}
