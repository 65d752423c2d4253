// Runs a scan's phases in order, each isolated from the others:
// - a stop (the scan's signal aborted, or its request budget used up) ends the scan and keeps what the
//   finished phases found;
// - a phase that throws, or passes its own time limit, is recorded as `{phase, error}` and the scan goes
//   on with the next phase; the result is then partial.
// (sslyze records a failed plugin beside the others' results in the same way.)
import { inertText } from './inert-text.ts';
import { ScanCannotRunError } from './reach.ts';
import { formatDuration } from './limits.ts';
import { ScanStoppedError, deadlineSignal, scanStop, stopOf } from './scan-stopped.ts';
import type { ScanStop } from './scan-stopped.ts';
import type { ProgressTracker } from './progress.ts';

export interface PhaseFailure {
  phase: string;
  /** One line for people: what went wrong. */
  error: string;
}

/** What the phases add to a scan's result. */
export interface PhaseOutcome {
  partial: boolean;
  /** Why the scan ended before every phase ran (absent when it was not stopped). */
  stopped?: ScanStop;
  phase_errors: PhaseFailure[];
}

export type PhaseWork = (
  tick: (done: number, total: number) => void,
  /** Aborts at the end of the phase's time, or when the scan stops: pass it to everything that waits. */
  signal: AbortSignal,
) => Promise<void>;

export interface PhaseRunnerOptions {
  /** The longest any one phase may run (default: no limit of its own; the scan's own limit still holds). */
  phaseMs?: number;
  /** Called with each phase's signal as it starts (the HTTP client scopes its requests to it). */
  onPhase?: (signal: AbortSignal) => void;
}

/** After its signal aborts, how long a phase may take to wind down before the runner moves on without it. */
const WIND_DOWN_MS = 2000;

/** An error as one line of inert text (its message may quote what the target sent). */
function describe(error: unknown): string {
  return inertText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 300);
}

export class PhaseRunner {
  private stop: ScanStop | null = null;
  private readonly failures: PhaseFailure[] = [];

  constructor(
    private readonly progress: ProgressTracker,
    private readonly signal?: AbortSignal,
    private readonly options: PhaseRunnerOptions = {},
  ) {}

  /** True once the scan was stopped: no further phase runs. */
  get stopped(): boolean {
    return this.stop !== null || Boolean(this.signal?.aborted);
  }

  /** Records a part of the scan that could not run (for work outside `run`, such as a cut-off probe list). */
  fail(phase: string, error: string): void {
    this.failures.push({ phase, error });
  }

  /** Ends the scan as stopped (a request budget used up outside a phase). */
  halt(stop: ScanStop): void {
    this.stop ??= stop;
  }

  async run(name: string, share: number, work: PhaseWork): Promise<void> {
    if (this.stopped) {
      this.stop ??= stopOf(this.signal);
      return;
    }
    this.progress.enter(name, share);
    const limit = this.options.phaseMs ?? Number.POSITIVE_INFINITY;
    const phase = deadlineSignal(
      limit,
      scanStop('deadline', `phase "${name}" reached its time limit of ${formatDuration(limit)}`),
      this.signal,
    );
    this.options.onPhase?.(phase.signal);
    try {
      await this.bounded(
        work((done, total) => this.progress.update(done, total), phase.signal),
        phase.signal,
      );
    } catch (error) {
      // Guard: a target that cannot be scanned at all (nothing answers, the policy refuses it) fails the scan.
      if (
        error instanceof ScanCannotRunError ||
        (error instanceof Error && error.name === 'TargetRefusedError')
      ) {
        throw error;
      }
      if (this.signal?.aborted) {
        this.stop ??= stopOf(this.signal);
      } else if (phase.signal.aborted) {
        this.failures.push({ phase: name, error: stopOf(phase.signal)?.detail ?? describe(error) });
      } else if (error instanceof ScanStoppedError && error.kind === 'budget') {
        this.stop ??= scanStop('budget', 'the scan used up its request budget');
      } else {
        this.failures.push({ phase: name, error: describe(error) });
      }
    } finally {
      phase.dispose();
    }
  }

  outcome(extraPartial = false): PhaseOutcome {
    const stop = this.stop ?? stopOf(this.signal);
    return {
      partial: extraPartial || stop !== null || this.failures.length > 0,
      ...(stop ? { stopped: stop } : {}),
      phase_errors: [...this.failures],
    };
  }

  /**
   * Waits for `work`, but no longer than WIND_DOWN_MS after `signal` aborts: a phase that does not heed
   * its signal (a wait without one) must not hold the scan. It may still finish in the background; what
   * it adds then is kept.
   */
  private bounded(work: Promise<void>, signal: AbortSignal): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => rejectLate(new ScanStoppedError('aborted')), WIND_DOWN_MS);
      timer.unref();
    };
    let rejectLate: (error: Error) => void = () => undefined;
    const late = new Promise<never>((_, reject) => {
      rejectLate = reject;
    });
    if (signal.aborted) {
      onAbort();
    } else {
      signal.addEventListener('abort', onAbort, { once: true });
    }
    // Guard: the abandoned work's own rejection must not surface as an unhandled rejection.
    work.catch(() => undefined);
    return Promise.race([work, late]).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  }
}
