// The per-target request rate: a scan's requests leave at most `perSecond` a second, however many of the
// scan's workers ask at once. Callers queue in order and each is let go only once `1/perSecond` seconds
// have passed (on the monotonic clock) since the previous one actually left, with no burst: any window
// of one second holds at most `perSecond` requests, even when timers fire late. A stop ends the wait.
import { ScanStoppedError } from './scan-stopped.ts';

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ScanStoppedError('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class RateLimiter {
  private readonly intervalMs: number;
  private last = Number.NEGATIVE_INFINITY;
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly perSecond: number) {
    // Guard: a zero, negative or NaN rate would stall or flood the target; callers validate, this is the backstop.
    if (!Number.isFinite(perSecond) || perSecond <= 0) {
      throw new RangeError(`rate limit must be a positive number of requests per second, not ${perSecond}`);
    }
    // 2 % slower than the exact spacing: uneven latency on the way must not squeeze one request too many
    // into a second as the target counts them.
    this.intervalMs = (1000 / perSecond) * 1.02;
  }

  /** Waits for this request's turn; rejects with ScanStoppedError when the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitTurn(signal));
    // A stopped caller leaves the line; the next one still waits its full interval after the last release.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async waitTurn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) {
        throw new ScanStoppedError('aborted');
      }
      const wait = this.last + this.intervalMs - performance.now();
      if (wait <= 0) {
        this.last = performance.now();
        return;
      }
      await sleep(Math.ceil(wait), signal);
    }
  }
}
