// Answers every request a scanned page makes, through the scan's HTTP client: so the target policy
// (resolved and pinned addresses, each redirect hop re-checked), the request budget and the rate limit
// hold for the browser exactly as for the scanner's own requests. Only the target's origin is fetched;
// images, fonts and media are refused unfetched (nothing a check reads); redirects are followed here,
// never by Chromium (which would go around the interception). What came back is recorded for the crawl.
//
// A page may fire requests without end, fetch huge bodies, or leave a request dripping: the router gives
// each visit a request quota and the rendering a total (the next page's own start with its navigation, so a
// flood left behind cannot spend them), sends a few at a time, answers the page within a
// deadline whatever the server does, reads each kind no further than its use needs, and keeps what the
// checks read (API answers whole when small, a prefix when large; documents; never scripts or styles)
// within a memory budget. What it refused or dropped is counted for the scan's report.
import type {
  ScanBrowserAnswer,
  ScanBrowserRequest,
  ScanBrowserRoute,
  ScanBrowserTab,
} from '../../../../shared/scan-browser.ts';
import type { HttpClient, HttpResponse } from '../../core/http-client.ts';
import { header, OutOfScopeError, ScanStoppedError } from '../../core/http-client.ts';
import { settle } from '../../../../shared/settle.ts';
import { sleep } from './bounded.ts';
import {
  answerOf,
  dropRequest,
  prefix,
  readLimit,
  redirectPage,
  routerLimits,
  unfetched,
} from './router-answers.ts';
import { Slots } from './slots.ts';
import { urlParamNames } from './url-params.ts';

export interface Exchange {
  request: ScanBrowserRequest;
  /**
   * The final answer (redirects followed), or null when the request was refused or failed. Its body is
   * what the checks may read: whole, a prefix of a large one, or empty (scripts, styles, over budget).
   */
  response: HttpResponse | null;
  refused?: string;
}

/** What the router refused, cut or did not keep, for the scan's report. */
export interface RouterCounts {
  /** Requests refused for a quota, a full queue, or an answer that came too late. */
  refused: number;
  /** Answers kept as a prefix, or without their body (over the memory budget). */
  trimmed: number;
  dropped: number;
  /** Exchanges not recorded at all (the buffer was full). */
  unrecorded: number;
}

export interface RouterOptions {
  /** Requests the rendering may send in all (its share of the scan's budget). */
  maxRequests?: number;
}

/** An exchange and the page's answer; a refusal for a quota is counted, never recorded. */
type Answered = Exchange & { answer: ScanBrowserAnswer; unrecorded?: true };

export class BrowserRouter {
  /** Script URLs of other origins the pages asked for (judged by URL alone, never fetched). */
  readonly foreignScripts = new Set<string>();
  /** Names of URL parameters the site's own scripts read (for the DOM XSS probe). */
  readonly scriptParams = new Set<string>();
  /** The latest credentials the pages sent to the target (what the scanner reuses after a browser login). */
  readonly lastSeen: { cookie?: string; authorization?: string } = {};
  readonly counts: RouterCounts = { refused: 0, trimmed: 0, dropped: 0, unrecorded: 0 };
  stopped: ScanStoppedError | null = null;
  /** Credentials to add to the page's own requests (a configured header or cookie login). */
  credentials: () => Record<string, string> = () => ({});

  private buffer: Exchange[] = [];
  private bufferBytes = 0;
  /** API calls answered after their page was read (takeLate), and what their bodies hold. */
  private late: Exchange[] = [];
  private lateBytes = 0;
  /** Counts the reads (take): a request that started before the last one belongs to a page already read. */
  private reads = 0;
  private visitRequests = 0;
  private totalRequests = 0;
  private abandoned = 0;
  private retained = 0;
  private readonly scriptsRead = new Set<string>();
  /** Start times of the requests in flight, and whether each may be a long poll (a GET). */
  private readonly inflight = new Set<{ since: number; poll: boolean; read: number }>();
  private lastActivity = Date.now();
  /** The current visit's turns: each page gets its own, so a flood left behind cannot starve the next page. */
  private slots = new Slots(routerLimits.concurrent, routerLimits.queued);
  /**
   * From startVisit until the new page's navigation is sent, then (`arriving`) until its answer reaches the
   * tab: the new page does not exist yet, so every other request comes from the page being left, which
   * goes on sending until its document is replaced (for over a second on a loaded host), and is refused
   * uncounted. The new page's quota and turns start with its navigation.
   */
  private leaving = false;
  private arriving = false;

  constructor(
    private readonly client: HttpClient,
    private readonly origin: string,
    private readonly options: RouterOptions = {},
  ) {}

  /**
   * Leaves the page the tab shows and loads `url` as a new visit. The tab passes through a blank page, which
   * replaces the old document at once and sends nothing: so nothing the old page sends can reach the new
   * page's quota between the new navigation's answer and its commit.
   */
  async visit(tab: ScanBrowserTab, url: string, timeoutMs: number): Promise<void> {
    this.startVisit();
    await tab.goto('about:blank', Math.min(timeoutMs, routerLimits.blankMs));
    await tab.goto(url, timeoutMs);
  }

  /** A new page visit (visit's first step): what the previous one recorded is dropped. */
  startVisit(): void {
    this.take();
    this.visitRequests = 0;
    this.leaving = true;
    // The last page's waiting requests are refused (it is gone); its requests in flight end underneath,
    // within their answer deadline, on the old turns.
    this.slots.close();
    this.slots = new Slots(routerLimits.concurrent, routerLimits.queued);
  }

  /** The exchanges recorded since the last take (or visit), in the order they ended. */
  take(): Exchange[] {
    const out = this.buffer;
    this.buffer = [];
    this.bufferBytes = 0;
    this.reads += 1;
    return out;
  }

  /**
   * The app's API calls answered after the page that sent them was read (slower than the settle budget, or
   * sent as the tab left): not that page's, nor the next one's, but calls of the site all the same.
   */
  takeLate(): Exchange[] {
    const out = this.late;
    this.late = [];
    this.lateBytes = 0;
    return out;
  }

  /** A response kept for the rest of the scan: whole while the budget lasts, without its body after. */
  retain(response: HttpResponse): HttpResponse {
    if (this.retained + response.body.length <= routerLimits.retainBytes) {
      this.retained += response.body.length;
      return response;
    }
    this.counts.dropped += 1;
    return { ...response, body: '' };
  }

  readonly route: ScanBrowserRoute = async (request) => {
    const entry = { since: Date.now(), poll: /^(?:GET|HEAD)$/i.test(request.method), read: this.reads };
    this.inflight.add(entry);
    this.lastActivity = entry.since;
    try {
      const exchange = await this.exchange(request);
      if (!exchange.unrecorded) {
        this.record(exchange, entry.read < this.reads);
      }
      return exchange.answer;
    } finally {
      this.inflight.delete(entry);
      this.lastActivity = Date.now();
    }
  };

  /**
   * Resolves once no request has started or ended for `quietMs`, or after `maxMs` at most. A GET open
   * longer than `longPollMs` (a long poll, an event stream: socket.io keeps one open all the time) does not
   * hold the page up; any other request does, to the end: it is the app sending something (a form, an XML
   * or JSON call), and an answer slow on a loaded host or a server answering one request at a time must not
   * leave it out of the page's calls.
   */
  async settled(quietMs: number, maxMs: number, signal?: AbortSignal, longPollMs = 2000): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until && !signal?.aborted && !this.stopped) {
      const now = Date.now();
      const busy = [...this.inflight].some((entry) => !entry.poll || now - entry.since < longPollMs);
      if (!busy && now - this.lastActivity >= quietMs) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Keeps what the checks read of an exchange, within the buffer's budget. One that ended after its page
   * was read (`late`) is kept apart when it is an answered API call, and not kept otherwise (a document or
   * a refusal of a page already read is nothing the crawl can use).
   */
  private record(exchange: Exchange, late: boolean): void {
    const response = exchange.response;
    if (late && (exchange.request.kind !== 'xhr' || !response)) {
      this.readScript(exchange);
      return;
    }
    if ((late ? this.late : this.buffer).length >= routerLimits.bufferEntries) {
      this.counts.unrecorded += 1;
      return;
    }
    if (!response) {
      this.buffer.push({ request: exchange.request, response: null, refused: exchange.refused! });
      return;
    }
    this.readScript(exchange);
    const { kind, navigation } = exchange.request;
    const keep =
      kind === 'xhr'
        ? routerLimits.keepWhole
        : kind === 'document' && navigation
          ? routerLimits.keepDocument
          : 0;
    let body = response.body;
    if (body.length > keep) {
      body = kind === 'xhr' ? prefix(body, routerLimits.keepPrefix) : '';
      this.counts.trimmed += keep > 0 ? 1 : 0;
    }
    const kept = late ? this.lateBytes : this.bufferBytes;
    if (kept + body.length > routerLimits.bufferBytes) {
      body = '';
      this.counts.dropped += 1;
    }
    const recorded = { ...exchange, response: body === response.body ? response : { ...response, body } };
    if (late) {
      this.lateBytes += body.length;
      this.late.push(recorded);
    } else {
      this.bufferBytes += body.length;
      this.buffer.push(recorded);
    }
  }

  /** What a script reads is all the crawl wants of it (its URL parameters): its body is never kept. */
  private readScript(exchange: Exchange): void {
    const response = exchange.response;
    if (!response) {
      return;
    }
    const url = exchange.request.url;
    if (exchange.request.kind === 'script' && !this.scriptsRead.has(url) && this.scriptsRead.size < 2000) {
      this.scriptsRead.add(url);
      for (const name of urlParamNames(response.body)) {
        if (this.scriptParams.size < 200) {
          this.scriptParams.add(name);
        }
      }
    }
  }

  private refusal(request: ScanBrowserRequest, reason: string): Answered {
    return {
      request,
      response: null,
      refused: reason,
      // A refused navigation is answered 204 No Content, on which browsers stay on the current page: a
      // page that sends the tab elsewhere (a form posted off-site, a script setting location) is still read.
      answer: request.navigation ? { status: 204, headers: [], body: '' } : { refused: reason },
    };
  }

  /** A visit's first navigation: the new page's quota and turns start here. */
  private arrive(): void {
    this.leaving = false;
    this.visitRequests = 0;
    // What the page left behind still queued is refused; what it has in flight ends on the old turns.
    this.slots.close();
    this.slots = new Slots(routerLimits.concurrent, routerLimits.queued);
  }

  /** Why a request of the target's origin may not be sent now, or null. */
  private overQuota(request: ScanBrowserRequest): string | null {
    // The tab's own navigations (the pages the crawl asked for) are never held back by a flood.
    if (!request.navigation && this.visitRequests >= routerLimits.perVisit) {
      return `the page made over ${routerLimits.perVisit} requests`;
    }
    if (this.totalRequests >= (this.options.maxRequests ?? Number.POSITIVE_INFINITY)) {
      return `the rendering used its ${this.options.maxRequests} requests`;
    }
    if (!request.navigation && this.abandoned >= routerLimits.abandoned) {
      return `${routerLimits.abandoned} requests of the page are still unanswered`;
    }
    return null;
  }

  private async exchange(request: ScanBrowserRequest): Promise<Answered> {
    const refuse = (reason: string) => this.refusal(request, reason);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refuse('not a URL');
    }
    if (url.origin !== this.origin) {
      if (request.kind === 'script' && this.foreignScripts.size < 500) {
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
    const first = request.navigation && this.leaving;
    if (first) {
      this.arrive();
    } else if (!request.navigation && (this.leaving || this.arriving)) {
      this.counts.refused += 1;
      await sleep(routerLimits.refusalDelayMs);
      return { ...refuse('the tab is leaving the page that sent it'), unrecorded: true };
    }
    const quota = this.overQuota(request);
    if (quota) {
      this.counts.refused += 1;
      await sleep(routerLimits.refusalDelayMs);
      // Not recorded: a flood's refusals would crowd out what the page did before.
      return { ...refuse(quota), unrecorded: true };
    }
    this.visitRequests += 1;
    this.totalRequests += 1;
    const deadline = Date.now() + routerLimits.answerMs;
    // A navigation does not queue behind the page's own requests.
    const turn = request.navigation ? () => undefined : await this.slots.acquire(routerLimits.answerMs);
    if (!turn) {
      this.counts.refused += 1;
      return refuse('too many requests of the page at once');
    }
    const pending = this.send(request, url);
    this.arriving ||= first;
    // The page is answered in time whatever the server does; the request may go on underneath, without
    // its turn, counted until it ends.
    const result = await settle(pending, deadline - Date.now());
    turn();
    if (first) {
      this.arriving = false;
    }
    if (result === 'timeout') {
      this.abandoned += 1;
      this.counts.refused += 1;
      const ended = () => {
        this.abandoned -= 1;
      };
      pending.then(ended, ended);
      return refuse(`no answer within ${routerLimits.answerMs} ms`);
    }
    return 'error' in result ? refuse(String(result.error)) : result.value;
  }

  private async send(request: ScanBrowserRequest, url: URL): Promise<Answered> {
    const refuse = (reason: string) => this.refusal(request, reason);
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
        maxBodyBytes: readLimit(request.kind),
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
