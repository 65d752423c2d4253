// Progress of one scan as the scanners report it: the CLI draws a bar, the worker writes it to the job row.
export interface ScanProgress {
  phase: string;
  /** 0..100 */
  percent: number;
  requestsPerSecond: number;
  /** Requests (or probes) sent so far. */
  requests: number;
  /** Estimated seconds left, or null before there is enough to estimate. */
  etaSeconds: number | null;
}

export type ProgressCallback = (progress: ScanProgress) => void;

/** Turns "done of total in this phase" into ScanProgress, spreading phases over weighted shares of 100%. */
export class ProgressTracker {
  private readonly started = Date.now();
  private base = 0;
  private share = 0;
  private phase = 'starting';

  constructor(
    private readonly onProgress: ProgressCallback | undefined,
    private readonly requestCount: () => number,
  ) {}

  /** Enters a phase that covers `share` percent of the whole scan. */
  enter(phase: string, share: number): void {
    this.base = Math.min(100, this.base + this.share);
    this.share = share;
    this.phase = phase;
    this.update(0, 1);
  }

  update(done: number, total: number): void {
    if (!this.onProgress) {
      return;
    }
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const percent = Math.min(100, this.base + this.share * fraction);
    const elapsed = (Date.now() - this.started) / 1000;
    const eta = percent > 2 ? Math.max(0, (elapsed * (100 - percent)) / percent) : null;
    this.onProgress({
      phase: this.phase,
      percent: Math.round(percent * 10) / 10,
      requestsPerSecond: elapsed > 0 ? Math.round(this.requestCount() / elapsed) : 0,
      requests: this.requestCount(),
      etaSeconds: eta === null ? null : Math.round(eta),
    });
  }

  finish(): void {
    this.base = 100;
    this.share = 0;
    this.phase = 'done';
    this.update(1, 1);
  }
}
