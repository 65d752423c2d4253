// Answers every request a scanned page makes, through the scan's HTTP client: so the target policy
// (resolved and pinned addresses, each redirect hop re-checked), the request budget and the rate limit
// hold for the browser exactly as for the scanner's own requests. Only the target's origin is fetched;
// images, fonts and media are refused unfetched (nothing a check reads); redirects are followed here,
// never by Chromium (which would go around the interception). What came back is recorded for the crawl.
import type {
  ScanBrowserAnswer,
  ScanBrowserRequest,
  ScanBrowserRoute,
} from '../../../../shared/scan-browser.ts';
import type { HttpClient, HttpResponse } from '../../core/http-client.ts';
import { header, OutOfScopeError, ScanStoppedError } from '../../core/http-client.ts';

export interface Exchange {
  request: ScanBrowserRequest;
  /** The final answer (redirects followed), or null when the request was refused or failed. */
  response: HttpResponse | null;
  refused?: string;
}

/** Scripts and bundles must arrive whole, or the app does not run. */
const maxBodyBytes = 8_000_000;
const unfetched = new Set(['image', 'font', 'media', 'websocket']);
const dropRequest = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'user-agent']);
const dropResponse = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection']);

function answerOf(response: HttpResponse): ScanBrowserAnswer {
  const headers: [string, string][] = [];
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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A navigation answered with a redirect: the page gets the redirect's cookies and goes on with a
 * client-side redirect, which is intercepted again like any navigation (Chromium would follow a real
 * 3xx itself, around the interception).
 */
function redirectPage(response: HttpResponse, next: URL | null): ScanBrowserAnswer {
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

export class BrowserRouter {
  readonly exchanges: Exchange[] = [];
  /** Script URLs of other origins the pages asked for (judged by URL alone, never fetched). */
  readonly foreignScripts = new Set<string>();
  /** The latest credentials the pages sent to the target (what the scanner reuses after a browser login). */
  readonly lastSeen: { cookie?: string; authorization?: string } = {};
  /** Start times of the requests in flight. */
  private readonly inflight = new Set<{ since: number }>();
  private lastActivity = Date.now();
  stopped: ScanStoppedError | null = null;

  /** Credentials to add to the page's own requests (a configured header or cookie login). */
  credentials: () => Record<string, string> = () => ({});

  constructor(
    private readonly client: HttpClient,
    private readonly origin: string,
  ) {}

  readonly route: ScanBrowserRoute = async (request) => {
    const entry = { since: Date.now() };
    this.inflight.add(entry);
    this.lastActivity = entry.since;
    try {
      const exchange = await this.exchange(request);
      this.exchanges.push(exchange);
      return exchange.answer;
    } finally {
      this.inflight.delete(entry);
      this.lastActivity = Date.now();
    }
  };

  /**
   * Resolves once no request has started or ended for `quietMs`, or after `maxMs` at most. A request
   * open longer than `longPollMs` (a long poll, an event stream: socket.io keeps one open all the time)
   * does not hold the page up.
   */
  async settled(quietMs: number, maxMs: number, signal?: AbortSignal, longPollMs = 2000): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until && !signal?.aborted && !this.stopped) {
      const now = Date.now();
      const busy = [...this.inflight].some((entry) => now - entry.since < longPollMs);
      if (!busy && now - this.lastActivity >= quietMs) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async exchange(request: ScanBrowserRequest): Promise<Exchange & { answer: ScanBrowserAnswer }> {
    // A refused navigation is answered 204 No Content, on which browsers stay on the current page: a page
    // that sends the tab elsewhere (a form posted off-site, a script setting location) is still read.
    const refuse = (reason: string) => ({
      request,
      response: null,
      refused: reason,
      answer: request.navigation
        ? { status: 204, headers: [] as [string, string][], body: '' }
        : { refused: reason },
    });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refuse('not a URL');
    }
    if (url.origin !== this.origin) {
      if (request.kind === 'script') {
        this.foreignScripts.add(url.href);
      }
      // Guard: the browser crawl stays on the target's origin, like the HTML crawl.
      return refuse('another origin');
    }
    if (unfetched.has(request.kind)) {
      return refuse(`${request.kind} not needed`);
    }
    if (this.stopped) {
      return refuse('scan stopped');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!dropRequest.has(name.toLowerCase())) {
        headers[name.toLowerCase()] = value;
      }
    }
    if (headers.cookie) {
      this.lastSeen.cookie = headers.cookie;
    }
    if (headers.authorization) {
      this.lastSeen.authorization = headers.authorization;
    }
    // A configured cookie joins the browser's own cookies; a configured header is added as is.
    for (const [name, value] of Object.entries(this.credentials())) {
      const key = name.toLowerCase();
      headers[key] = key === 'cookie' && headers.cookie ? `${headers.cookie}; ${value}` : value;
    }
    let response: HttpResponse;
    try {
      response = await this.client.request(url, {
        method: request.method,
        headers,
        ...(request.body === null ? {} : { body: request.body }),
        followRedirects: request.navigation ? 'none' : 'same-origin',
        maxBodyBytes,
        // The browser holds its own cookies; the client's session is for the scanner's own requests.
        anonymous: true,
      });
    } catch (error) {
      if (error instanceof ScanStoppedError) {
        this.stopped = error;
        return refuse('scan stopped');
      }
      if (
        error instanceof OutOfScopeError ||
        (error instanceof Error && error.name === 'TargetRefusedError')
      ) {
        return refuse(error.message);
      }
      return refuse(error instanceof Error ? error.message : String(error));
    }
    const location = header(response, 'location');
    if (response.status >= 300 && response.status < 400 && location) {
      let next: URL | null;
      try {
        next = new URL(location, url);
      } catch {
        next = null;
      }
      const sameOrigin = next?.origin === this.origin ? next : null;
      if (request.navigation) {
        return { request, response, answer: redirectPage(response, sameOrigin) };
      }
      // A sub-request still redirecting after the client followed what stays on the origin leaves it.
      return { ...refuse('redirects off the site'), response };
    }
    return { request, response, answer: answerOf(response) };
  }
}
