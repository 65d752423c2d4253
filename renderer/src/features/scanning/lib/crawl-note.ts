// How a web scan crawled, in a few words for the scans table: rendered in a browser or HTML only, and
// how its login went (analyzed_results.crawl, written by the agent worker).
import type { Json } from '../../../../../shared/database.types.ts';

interface Crawl {
  engine?: unknown;
  login?: { status?: unknown; detail?: unknown } | null;
}

const engines: Record<string, string> = {
  chromium: 'rendered in Chromium',
  electron: 'rendered in the desktop app',
  html: 'HTML only (no JavaScript run)',
};
const logins: Record<string, string> = {
  'logged-in': 'logged in',
  failed: 'login failed',
  expired: 'session expired during the scan',
};

export function crawlNote(analyzed: Json | null): { text: string; detail: string | null } | null {
  const crawl = (
    analyzed && typeof analyzed === 'object' && !Array.isArray(analyzed) ? analyzed.crawl : null
  ) as Crawl | null | undefined;
  if (!crawl || typeof crawl.engine !== 'string') {
    return null;
  }
  const parts = [engines[crawl.engine] ?? crawl.engine];
  const status = typeof crawl.login?.status === 'string' ? crawl.login.status : null;
  if (status) {
    parts.push(logins[status] ?? status);
  }
  const detail =
    status && status !== 'logged-in' && typeof crawl.login?.detail === 'string' ? crawl.login.detail : null;
  return { text: parts.join(' · '), detail };
}
