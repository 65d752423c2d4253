import { formatEta, parseProgress } from '../lib/scan-status.ts';

/** Live progress of a running scan from scan_results.progress: phase, percent, requests/s and ETA. */
export function ScanProgressView({ progress, label }: { progress: unknown; label: string }) {
  const p = parseProgress(progress);
  const percent = Math.round(p.percent);
  return (
    <div className="space-y-2" data-testid="scan-progress">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="truncate font-medium capitalize">{p.phase}</span>
        <span className="tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%, ${p.phase}`}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
      <dl className="grid grid-cols-2 gap-2 text-xs text-muted-foreground">
        <div>
          <dt className="inline">Requests/s: </dt>
          <dd className="inline tabular-nums">{p.requestsPerSecond ?? '—'}</dd>
        </div>
        <div className="text-right">
          <dt className="inline">Time left: </dt>
          <dd className="inline tabular-nums">{formatEta(p.etaSeconds)}</dd>
        </div>
      </dl>
    </div>
  );
}
