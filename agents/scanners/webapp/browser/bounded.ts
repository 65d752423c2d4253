// Waiting on a promise for at most a while, without ever leaving its rejection unhandled: whatever the
// promise does after the wait gave up (a Playwright call rejects once its page is closed), it is absorbed.
// And the two ways a browser call ends that the crawl handles rather than fails on.
import { ScanBrowserStopped, ScanTabCut } from '../../../../shared/scan-browser.ts';

export type Settled<T> = { value: T } | { error: unknown } | 'timeout';

export function settle<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ error });
      },
    );
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A browser's own ending (a page cut short, the browser gone): what the crawl handles, not a failure. */
export const isBrowserEnd = (error: unknown): error is ScanTabCut | ScanBrowserStopped =>
  error instanceof ScanTabCut || error instanceof ScanBrowserStopped;

/**
 * The time a call may take: what is left before `deadline`, within `most`, and never less than two
 * seconds (a page must not be taken for stuck because the phase's time ran out: a call starting past
 * its deadline still gets a fair wait, and the callers stop starting calls once the deadline is past).
 */
export const within = (deadline: number, most: number) =>
  Math.min(most, Math.max(2000, deadline - Date.now()));
