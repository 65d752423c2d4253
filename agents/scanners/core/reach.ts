// Whether a web or API target answers at all. A target that refuses connections, or answers nothing on
// any path, cannot be scanned: the scan fails, saying so. A target whose start page alone cannot be read
// (it drips, lies about its length, sends headers too large) still answers elsewhere, and every other
// check runs: its start page is then recorded as a failed part of the scan, not the end of it.
import type { HttpClient, HttpResponse } from './http-client.ts';
import { ScanStoppedError } from './scan-stopped.ts';

/** The scan cannot run at all (no phase can do anything): it fails, saying why, instead of one phase. */
export class ScanCannotRunError extends Error {
  override name = 'ScanCannotRunError';
}

/** The scan cannot run: nothing at the target answers. */
export class TargetUnreachableError extends ScanCannotRunError {
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`${target} does not answer: ${reason}`);
    this.name = 'TargetUnreachableError';
  }
}

/** Network errors that mean no server is there (as opposed to one that answered badly or slowly). */
const noServer = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * The target's answer to `start`, or null when `start` cannot be read but the target answers elsewhere
 * (the caller records why and goes on). Throws TargetUnreachableError when nothing answers; stops and
 * refusals propagate.
 */
export async function reachTarget(
  client: HttpClient,
  start: URL,
  onUnreadable: (why: string) => void,
): Promise<HttpResponse | null> {
  try {
    return await client.request(start);
  } catch (error) {
    if (
      error instanceof ScanStoppedError ||
      (error instanceof Error && error.name === 'TargetRefusedError')
    ) {
      throw error;
    }
    const code = codeOf(error);
    if (code && noServer.has(code)) {
      throw new TargetUnreachableError(start.origin, describe(error));
    }
    // Something is there but `start` could not be read: a second path tells a broken page from a dead server.
    const other = new URL('/robots.txt', start);
    if ((await client.tryRequest(other)) === null) {
      throw new TargetUnreachableError(start.origin, describe(error));
    }
    onUnreadable(`${start.href} could not be read: ${describe(error)}`);
    return null;
  }
}
