// What the browser router reads, answers and keeps, by kind of request: its limits, and the answers it
// builds for the page (router.ts uses them for every request a scanned page makes).
import type { ScanBrowserAnswer, ScanRequestKind } from '../../../../shared/scan-browser.ts';
import { cookiesSet } from '../../core/http-client.ts';
import type { HttpResponse } from '../../core/http-client.ts';

const kb = 1024;
const mb = 1024 * kb;

export const routerLimits = {
  /** What the page receives, at most, by kind: scripts and bundles must arrive whole or the app breaks. */
  readBytes: { document: 4 * mb, script: 8 * mb, xhr: 4 * mb, stylesheet: 1 * mb, other: 256 * kb } as Record<
    'document' | 'script' | 'xhr' | 'stylesheet' | 'other',
    number
  >,
  /** Kept for the checks: a document up to this (what the HTML crawl reads of a page)… */
  keepDocument: 1 * mb,
  /** …an API answer whole up to this (JSON the session checks parse), else its first `keepPrefix`. */
  keepWhole: 256 * kb,
  keepPrefix: 64 * kb,
  /** Bodies kept for the rest of the scan (API answers and rendered documents the checks read). */
  retainBytes: 48 * mb,
  /** Bodies and exchanges kept between two reads of the crawl (one page visit). */
  bufferBytes: 32 * mb,
  bufferEntries: 1000,
  /** Requests sent at once (a browser's per-host limit), and waiting for a turn. */
  concurrent: 6,
  queued: 64,
  /** The page gets its answer (or a refusal) within this, whatever the server does. */
  answerMs: 12_000,
  /** Requests whose answer came too late, still open underneath; past this, new ones are refused. */
  abandoned: 32,
  /** Requests one page visit may make. */
  perVisit: 300,
  /** Loading the blank page a tab passes through between two pages (it touches no network). */
  blankMs: 10_000,
  /** A request over a quota is refused after this: a page retrying in a loop then spins slowly. */
  refusalDelayMs: 250,
};

export const unfetched = new Set(['image', 'font', 'media', 'websocket']);
export const dropRequest = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'user-agent']);
const dropResponse = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection']);

export function readLimit(kind: ScanRequestKind): number {
  return kind in routerLimits.readBytes
    ? routerLimits.readBytes[kind as keyof typeof routerLimits.readBytes]
    : routerLimits.readBytes.other;
}

/**
 * RFC 6265 5.1.4: the path a cookie without a Path attribute gets, from the URL that set it. A cookie
 * set on a redirect hop is handed to the browser with the final answer, so its default path is written out.
 */
export function defaultCookiePath(url: string): string {
  const path = new URL(url).pathname;
  const last = path.lastIndexOf('/');
  return last <= 0 ? '/' : path.slice(0, last);
}

const withPath = (line: string, url: string) =>
  /;\s*path\s*=/i.test(line) ? line : `${line}; Path=${defaultCookiePath(url)}`;

export function answerOf(response: HttpResponse): ScanBrowserAnswer {
  // The cookies the redirect hops set (the client followed them): the browser would have kept them.
  const headers: [string, string][] = cookiesSet(response)
    .filter((cookie) => cookie.earlier)
    .map((cookie): [string, string] => ['set-cookie', withPath(cookie.line, cookie.url)]);
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || dropResponse.has(name)) {
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      headers.push([name, one]);
    }
  }
  return { status: response.status, headers, body: response.body };
}

/** A copy of the start of `text`: a plain slice would keep the whole large string alive. */
export function prefix(text: string, length: number): string {
  return Buffer.from(text.slice(0, length), 'utf16le').toString('utf16le');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A navigation answered with a redirect: the page gets the redirect's cookies and goes on with a
 * client-side redirect, which is intercepted again like any navigation (Chromium would follow a real
 * 3xx itself, around the interception).
 */
export function redirectPage(response: HttpResponse, next: URL | null): ScanBrowserAnswer {
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const body = next
    ? `<!doctype html><meta http-equiv="refresh" content="0;url=${escapeHtml(next.href)}">`
    : '<!doctype html><title>Left the scanned site</title>';
  return {
    status: 200,
    headers: [
      ['content-type', 'text/html; charset=utf-8'],
      ...cookies.map((c): [string, string] => ['set-cookie', c]),
    ],
    body,
  };
}
