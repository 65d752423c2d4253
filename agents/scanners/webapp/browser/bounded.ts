// Waits within a deadline, and the two ways a browser call ends that the crawl handles rather than fails on.
import { ScanBrowserStopped, ScanTabCut } from '../../../../shared/scan-browser.ts';

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
