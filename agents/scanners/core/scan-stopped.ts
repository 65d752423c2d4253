// Why a scan ended before every check ran, and the error that carries a stop through the checks.
//
// A scan is stopped from outside through its AbortSignal. The signal's reason says why, as a ScanStop:
// the customer cancelled it, it reached its time limit, its processes passed their memory cap, or they
// died. Checks only see ScanStoppedError; the phase runner reads the reason from the signal.

export type StopReason = 'cancelled' | 'deadline' | 'memory' | 'budget' | 'crashed';

export interface ScanStop {
  reason: StopReason;
  /** One line for people: what was reached, and its limit. */
  detail: string;
}

const reasons: readonly StopReason[] = ['cancelled', 'deadline', 'memory', 'budget', 'crashed'];

/** Thrown when a scan (or one phase of it) must end early: its signal aborted, or its request budget ran out. */
export class ScanStoppedError extends Error {
  constructor(readonly kind: 'aborted' | 'budget') {
    super(kind === 'aborted' ? 'scan stopped' : 'request budget exhausted');
    this.name = 'ScanStoppedError';
  }
}

export function scanStop(reason: StopReason, detail: string): ScanStop {
  return { reason, detail };
}

/**
 * Why `signal` was aborted, as a ScanStop: the reason it was aborted with when that is one, a timeout as
 * a deadline, anything else (a plain abort(), the worker's 'cancelled') as a cancel.
 */
export function stopOf(signal: AbortSignal | undefined): ScanStop | null {
  if (!signal?.aborted) {
    return null;
  }
  const reason: unknown = signal.reason;
  if (
    reason &&
    typeof reason === 'object' &&
    'reason' in reason &&
    reasons.includes((reason as ScanStop).reason) &&
    typeof (reason as ScanStop).detail === 'string'
  ) {
    return reason as ScanStop;
  }
  if (reason instanceof DOMException && reason.name === 'TimeoutError') {
    return scanStop('deadline', 'time limit reached');
  }
  return scanStop('cancelled', 'stopped by request');
}

/**
 * A signal that aborts with `stop` after `ms`, or when `parent` aborts (with the parent's reason). Its
 * timer never keeps the process alive; `dispose` clears it once the work is done.
 */
export function deadlineSignal(
  ms: number,
  stop: ScanStop,
  parent?: AbortSignal,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = Number.isFinite(ms) ? setTimeout(() => controller.abort(stop), Math.max(0, ms)) : null;
  timer?.unref();
  const onParent = () => controller.abort(parent?.reason);
  if (parent?.aborted) {
    controller.abort(parent.reason);
  } else {
    parent?.addEventListener('abort', onParent, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer) {
        clearTimeout(timer);
      }
      parent?.removeEventListener('abort', onParent);
    },
  };
}
