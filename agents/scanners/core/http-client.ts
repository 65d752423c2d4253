// The one HTTP client of the scanners: every request goes through the target policy (resolved address
// pinned for the connection, redirects re-checked hop by hop), counts against a request budget, ends by
// its deadlines whatever the target does (http-transport.ts), reads at most `maxBodyBytes`, and leaves
// no faster than the target's rate limit allows. Answers are read as browsers read them: malformed ones
// come back with notes of what was wrong, unreadable ones as typed errors (http-errors.ts).
// Certificates are not verified here: scanners must read badly configured sites; the TLS check reports
// certificate problems separately.
import http from 'node:http';
import https from 'node:https';

import type { TargetPolicy } from '../target-policy.ts';
import { HttpProtocolError, HttpTimeoutError } from './http-errors.ts';
import type { CutShort } from './http-lenient.ts';
import { exchange } from './http-transport.ts';
import { RateLimiter } from './rate-limit.ts';
import { ScanStoppedError } from './scan-stopped.ts';

export { HttpProtocolError, HttpTimeoutError, ScanStoppedError };
export type { CutShort };

/**
 * Defaults of the per-request limits. A deadline is never shorter than the silence a request is allowed
 * (a probe that waits 20 s for a delayed answer gets 20 s for its headers too), and the headers' never
 * longer than the whole response's.
 */
export const httpDefaults = {
  /** Longest silence, no byte at all, before a request is given up (or, mid-body, cut short). */
  idleMs: 10_000,
  /** From the send (connect and TLS included) to the end of the response headers. */
  headersMs: 15_000,
  /** From the send to the end of the body, however slowly it drips. */
  responseMs: 30_000,
  /** Body bytes kept of one response. */
  maxBodyBytes: 1_000_000,
  /**
   * Each deadline of a request to a path that already ran into a deadline in this scan (and, once three
   * paths have, to any path of the site): a tarpit gets one request's worth of patience, not one per probe.
   */
  impatientMs: 5_000,
};

/** Paths of one site that ran into a deadline: a tarpit's patience is spent once. */
class SlowPaths {
  private readonly paths = new Set<string>();
  private readonly origins = new Map<string, number>();

  note(url: URL): void {
    const key = `${url.origin}${url.pathname}`;
    if (!this.paths.has(key)) {
      this.paths.add(key);
      this.origins.set(url.origin, (this.origins.get(url.origin) ?? 0) + 1);
    }
  }

  has(url: URL): boolean {
    return this.paths.has(`${url.origin}${url.pathname}`) || (this.origins.get(url.origin) ?? 0) >= 3;
  }
}

export interface HttpResponse {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Redirect hops followed before this response. */
  redirects: string[];
  /**
   * Set-Cookie lines other answers on the way to this one carried, each with its URL (a cookie without
   * Path takes its default path from it): the redirect hops followed before it, and, on a rendered page,
   * the HTML crawl's answer for the same page it replaced. Absent when there were none. Read the cookies an
   * answer set through `cookiesSet`, which includes them.
   */
  earlierCookies?: { url: string; lines: string[] }[];
  /**
   * Milliseconds from sending the (last hop's) request, after its rate-limit slot, to the end of its body:
   * what time-based probes measure. Absent on responses this client did not fetch, and on bodies a
   * deadline or a silence cut short (they never ended, so their time says nothing).
   */
  elapsedMs?: number;
  /**
   * Why `body` is only what arrived: the size cap, the whole-response deadline, a silence mid-body, a
   * connection closed early, or a body whose framing broke. Absent when the body is whole.
   */
  cutShort?: CutShort;
  /** What was wrong with the answer as sent (bare LF, a Content-Length that lies...), as inert text. */
  malformed?: string[];
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** 'same-origin' follows redirects that stay on the origin; 'any' follows all (each hop re-checked). */
  followRedirects?: 'none' | 'same-origin' | 'any';
  /** This request's longest silence (the client's `timeoutMs` otherwise). */
  timeoutMs?: number;
  /** This request's deadline for its response headers (the client's otherwise). */
  headersTimeoutMs?: number;
  /** This request's deadline for its whole response (the client's otherwise). */
  responseTimeoutMs?: number;
  /** 'latin1' keeps every byte as one character, for magic numbers of binary files (archives, dumps). */
  encoding?: 'utf8' | 'latin1';
  /**
   * Reads at most this many bytes of this response (the client's own limit otherwise): less for a magic
   * number, more for what must arrive whole (a script bundle the browser runs).
   */
  maxBodyBytes?: number;
  /** Sent without the scan's login session: no credentials added, a 401 is an answer, not a lost session. */
  anonymous?: boolean;
}

/**
 * The login of an authenticated scan, as the client applies it (webapp/auth/session.ts): credentials on
 * the target's own requests, requests that would end the session refused, a lost session renewed.
 */
export interface HttpSession {
  /** Credentials for a request to `url` (empty for any origin but the target's). */
  headers(url: URL): Record<string, string>;
  /** Why this request (with the headers it would carry) must not be sent in the session, or null. */
  refuses(url: URL, method: string, headers: Record<string, string>): string | null;
  /** Looks at each response; true when the session had been lost and is renewed (the request is sent again once). */
  renewed(url: URL, response: HttpResponse): Promise<boolean>;
}

/** A request the scan's session will not send (a logout link, a deletion); tryRequest answers null for it. */
export class OutOfScopeError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`not sent: ${url} (${reason})`);
    this.name = 'OutOfScopeError';
  }
}

export interface HttpClientOptions {
  policy: TargetPolicy;
  signal?: AbortSignal;
  maxRequests?: number;
  /** Longest silence before a request is given up or, mid-body, cut short; default 10 s. */
  timeoutMs?: number;
  /** From the send (connect and TLS included) to the end of the response headers; default 15 s. */
  headersTimeoutMs?: number;
  /**
   * From the send to the end of the body, whatever the drip; default 30 s. What arrived by then is
   * returned, marked `cutShort: 'deadline'`; with no headers by then the request fails.
   */
  responseTimeoutMs?: number;
  /** Body bytes kept of one response; default 1 MB. */
  maxBodyBytes?: number;
  /** Each deadline of a request to a path (or site) that already ran into one; default 5 s. */
  impatientMs?: number;
  /** Requests per second this client may send (the target's limit); unlimited when absent. */
  rateLimit?: number;
  /** An authenticated scan's login; set once the scan has logged in. */
  session?: HttpSession;
}

const userAgent = 'Vigil-Scanner/0.1 (+https://vigil.security/scanner)';

export function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A Set-Cookie line and the URL whose answer carried it. */
export interface CookieLine {
  url: string;
  line: string;
  /** Set by an earlier answer (a redirect hop, the HTML crawl's answer), not by this answer itself. */
  earlier: boolean;
}

/** Every cookie an answer set: the earlier answers' Set-Cookie lines first, in order, then its own. */
export function cookiesSet(response: HttpResponse): CookieLine[] {
  const earlier = (response.earlierCookies ?? []).flatMap(({ url, lines }) =>
    lines.map((line) => ({ url, line, earlier: true })),
  );
  const own = ([] as string[])
    .concat(response.headers['set-cookie'] ?? [])
    .map((line) => ({ url: response.url, line, earlier: false }));
  return [...earlier, ...own];
}

/** Connections a scan keeps open to one origin: no more of its requests than this are ever in flight there. */
export const maxSocketsPerOrigin = 16;

export class HttpClient {
  requests = 0;
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: maxSocketsPerOrigin }),
    'https:': new https.Agent({
      keepAlive: true,
      maxSockets: maxSocketsPerOrigin,
      rejectUnauthorized: false,
    }),
  };

  private readonly limiter: RateLimiter | null;
  private readonly slow = new SlowPaths();
  /** The running phase's signal (its time limit and the scan's stop); the scan's own signal before any phase. */
  private scoped: AbortSignal | undefined;

  constructor(private readonly options: HttpClientOptions) {
    this.limiter = options.rateLimit === undefined ? null : new RateLimiter(options.rateLimit);
  }

  get signal(): AbortSignal | undefined {
    return this.scoped ?? this.options.signal;
  }

  /** Every later request ends when `signal` aborts (the phase runner scopes requests to the running phase). */
  scope(signal: AbortSignal): void {
    this.scoped = signal;
  }

  /** Every later request carries this login (or none, with null). */
  useSession(session: HttpSession | null): void {
    if (session) {
      this.options.session = session;
    } else {
      delete this.options.session;
    }
  }

  async request(input: string | URL, init: RequestInit = {}): Promise<HttpResponse> {
    let url = new URL(input);
    const redirects: string[] = [];
    const earlierCookies: { url: string; lines: string[] }[] = [];
    let renewed = false;
    for (;;) {
      const session = this.options.session;
      const answer = async (): Promise<HttpResponse> => ({
        ...(await this.once(url, init)),
        redirects,
        ...(earlierCookies.length > 0 ? { earlierCookies } : {}),
      });
      let response = await answer();
      // A lost session is renewed once per request, and the request sent again in the new session.
      if (session && !init.anonymous && !renewed && (await session.renewed(url, response))) {
        renewed = true;
        response = await answer();
      }
      const location = header(response, 'location');
      const follow = init.followRedirects ?? 'none';
      if (
        follow === 'none' ||
        !location ||
        response.status < 300 ||
        response.status > 399 ||
        redirects.length >= 5
      ) {
        return response;
      }
      const next = new URL(location, url);
      if (follow === 'same-origin' && next.origin !== url.origin) {
        return response;
      }
      redirects.push(url.href);
      const lines = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
      if (lines.length > 0) {
        earlierCookies.push({ url: url.href, lines });
      }
      url = next;
    }
  }

  /**
   * Takes one turn of the target's rate limit for a connection that is not an HTTP request (a TLS
   * probe), and counts it as a request.
   */
  async turn(): Promise<void> {
    this.requests += 1;
    await this.limiter?.acquire(this.signal);
  }

  /**
   * Like request, but a network error (refused, reset, timeout, an unreadable answer) is null; stops and
   * refusals still throw.
   */
  async tryRequest(input: string | URL, init: RequestInit = {}): Promise<HttpResponse | null> {
    try {
      return await this.request(input, init);
    } catch (error) {
      if (
        error instanceof ScanStoppedError ||
        (error instanceof Error && error.name === 'TargetRefusedError')
      ) {
        throw error;
      }
      return null;
    }
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private async once(url: URL, init: RequestInit): Promise<Omit<HttpResponse, 'redirects'>> {
    const signal = this.signal;
    if (signal?.aborted) {
      throw new ScanStoppedError('aborted');
    }
    // Guard: the budget bounds how hard one scan can hit a customer's site.
    if (this.requests >= (this.options.maxRequests ?? Number.POSITIVE_INFINITY)) {
      throw new ScanStoppedError('budget');
    }
    const target = await this.options.policy.assertUrl(url);
    const session = this.options.session;
    const credentials = session && !init.anonymous ? session.headers(url) : {};
    const headers: Record<string, string> = {
      'user-agent': userAgent,
      accept: '*/*',
      ...init.headers,
      ...credentials,
    };
    // A request's own cookies (a check sending one back changed) join the session's, first: servers read
    // the first of two with one name.
    if (init.headers?.cookie && credentials.cookie) {
      headers.cookie = `${init.headers.cookie}; ${credentials.cookie}`;
    }
    // Guard: whatever asks for it (a crawled link, a form, the browser), the session is never ended, and
    // nothing that could destroy the account's data is sent with credentials.
    const refusal = session?.refuses(url, init.method ?? 'GET', headers);
    if (refusal) {
      throw new OutOfScopeError(url.href, refusal);
    }
    this.requests += 1;
    // Every request, redirect hops included, waits for its slot under the target's rate limit.
    await this.limiter?.acquire(signal);
    const limits = this.limits(init, url);
    const answer = await exchange({
      url,
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      target,
      agent: this.agents[url.protocol as 'http:' | 'https:'],
      limits,
      maxBody: init.maxBodyBytes ?? this.options.maxBodyBytes ?? httpDefaults.maxBodyBytes,
      ...(signal ? { signal } : {}),
      // The tolerant reader's second sending is a request like any other: budgeted, counted and paced.
      beforeResend: () => {
        if (this.requests >= (this.options.maxRequests ?? Number.POSITIVE_INFINITY)) {
          throw new ScanStoppedError('budget');
        }
        return this.turn();
      },
    }).catch((error: unknown) => {
      if (error instanceof HttpTimeoutError && error.deadline !== 'idle') {
        this.slow.note(url);
      }
      throw error;
    });
    if (answer.cutShort === 'deadline') {
      this.slow.note(url);
    }
    return {
      url: url.href,
      status: answer.status,
      headers: answer.headers,
      body: answer.body.toString(init.encoding ?? 'utf8'),
      ...(answer.elapsedMs === undefined ? {} : { elapsedMs: answer.elapsedMs }),
      ...(answer.cutShort ? { cutShort: answer.cutShort } : {}),
      ...(answer.notes.length > 0 ? { malformed: answer.notes } : {}),
    };
  }

  private limits(init: RequestInit, url: URL): { idleMs: number; headersMs: number; responseMs: number } {
    const idleMs = init.timeoutMs ?? this.options.timeoutMs ?? httpDefaults.idleMs;
    const responseMs = Math.max(
      idleMs,
      init.responseTimeoutMs ?? this.options.responseTimeoutMs ?? httpDefaults.responseMs,
    );
    const headersMs = Math.max(
      idleMs,
      init.headersTimeoutMs ?? this.options.headersTimeoutMs ?? httpDefaults.headersMs,
    );
    const cap = this.slow.has(url)
      ? (this.options.impatientMs ?? httpDefaults.impatientMs)
      : Number.POSITIVE_INFINITY;
    return {
      idleMs: Math.min(idleMs, cap),
      headersMs: Math.min(headersMs, responseMs, cap),
      responseMs: Math.min(responseMs, cap),
    };
  }
}
