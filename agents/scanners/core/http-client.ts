// The one HTTP client of the scanners: every request goes through the target policy (resolved address
// pinned for the connection, redirects re-checked hop by hop), counts against a request budget, has a
// timeout, reads at most `maxBodyBytes`, and leaves no faster than the target's rate limit allows.
// Certificates are not verified here: scanners must read badly configured sites; the TLS check reports
// certificate problems separately.
import http from 'node:http';
import https from 'node:https';

import { pinnedLookup } from '../target-policy.ts';
import type { TargetPolicy } from '../target-policy.ts';
import { RateLimiter } from './rate-limit.ts';
import { ScanStoppedError } from './scan-stopped.ts';

export { ScanStoppedError };

export interface HttpResponse {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Redirect hops followed before this response. */
  redirects: string[];
  /**
   * Milliseconds from sending the (last hop's) request, after its rate-limit slot, to the end of its body:
   * what time-based probes measure. Absent on responses this client did not fetch.
   */
  elapsedMs?: number;
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** 'same-origin' follows redirects that stay on the origin; 'any' follows all (each hop re-checked). */
  followRedirects?: 'none' | 'same-origin' | 'any';
  timeoutMs?: number;
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
  timeoutMs?: number;
  maxBodyBytes?: number;
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

export class HttpClient {
  requests = 0;
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false }),
  };

  private readonly limiter: RateLimiter | null;
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
    let renewed = false;
    for (;;) {
      const session = this.options.session;
      let response = { ...(await this.once(url, init)), redirects };
      // A lost session is renewed once per request, and the request sent again in the new session.
      if (session && !init.anonymous && !renewed && (await session.renewed(url, response))) {
        renewed = true;
        response = { ...(await this.once(url, init)), redirects };
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

  /** Like request, but a network error (refused, reset, timeout) is null; stops and refusals still throw. */
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
    const headers = { 'user-agent': userAgent, accept: '*/*', ...init.headers, ...credentials };
    // Guard: whatever asks for it (a crawled link, a form, the browser), the session is never ended, and
    // nothing that could destroy the account's data is sent with credentials.
    const refusal = session?.refuses(url, init.method ?? 'GET', headers);
    if (refusal) {
      throw new OutOfScopeError(url.href, refusal);
    }
    this.requests += 1;
    // Every request, redirect hops included, waits for its slot under the target's rate limit.
    await this.limiter?.acquire(signal);
    const transport = url.protocol === 'https:' ? https : http;
    const maxBody = init.maxBodyBytes ?? this.options.maxBodyBytes ?? 1_000_000;
    const timeout = init.timeoutMs ?? this.options.timeoutMs ?? 10_000;
    const sentAt = performance.now();
    return new Promise((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          lookup: pinnedLookup(target),
          signal,
          timeout,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= maxBody) {
              chunks.push(chunk);
            } else {
              // Guard: a huge or endless body must not exhaust memory; what we have is enough to judge.
              chunks.push(chunk.subarray(0, Math.max(0, maxBody - (size - chunk.length))));
              response.destroy();
              finish();
            }
          });
          const finish = () =>
            resolve({
              url: url.href,
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString(init.encoding ?? 'utf8'),
              elapsedMs: performance.now() - sentAt,
            });
          response.on('end', finish);
          // A server that closes before the Content-Length it announced (a middleware that rewrote the body)
          // still sent a page: browsers and curl show what arrived, and so do we.
          const cutShort = (error: NodeJS.ErrnoException) =>
            error.code === 'ECONNRESET' && error.message === 'aborted' && !signal?.aborted;
          response.on('error', (error) => (size > maxBody || cutShort(error) ? finish() : reject(error)));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`timeout after ${timeout} ms`)));
      request.on('error', (error) => {
        reject(signal?.aborted ? new ScanStoppedError('aborted') : error);
      });
      request.end(init.body);
    });
  }
}
