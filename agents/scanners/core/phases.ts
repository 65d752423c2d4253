// Runs a scan's phases in order; a stop (abort or exhausted budget) ends the scan but keeps what the
// finished phases found, and marks the result partial.
import { ScanStoppedError } from './http-client.ts';
import type { ProgressTracker } from './progress.ts';

export class PhaseRunner {
  partial = false;

  constructor(
    private readonly progress: ProgressTracker,
    private readonly signal?: AbortSignal,
  ) {}

  async run(
    name: string,
    share: number,
    work: (tick: (done: number, total: number) => void) => Promise<void>,
  ): Promise<void> {
    if (this.partial || this.signal?.aborted) {
      this.partial = true;
      return;
    }
    this.progress.enter(name, share);
    try {
      await work((done, total) => this.progress.update(done, total));
    } catch (error) {
      // Guard: a stop is an expected end, not a failure; anything else is a bug and propagates.
      if (error instanceof ScanStoppedError) {
        this.partial = true;
        return;
      }
      throw error;
    }
  }
}
