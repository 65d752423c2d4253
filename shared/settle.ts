// Waiting on a promise for at most a while, without ever leaving its rejection unhandled: whatever the
// promise does after the wait gave up (a browser call rejects once its page is closed), it is absorbed.
// Used by both browser engines of the web scan (webapp/browser/chromium*.ts and electron/main/scan-browser.ts).

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
