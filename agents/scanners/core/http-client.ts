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
  /** Reads at most this many bytes of this response (the client's own limit otherwise). */
  maxBodyBytes?: number;
}

export interface HttpClientOptions {
  policy: TargetPolicy;
  signal?: AbortSignal;
  maxRequests?: number;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Requests per second this client may send (the target's limit); unlimited when absent. */
  rateLimit?: number;
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

  constructor(private readonly options: HttpClientOptions) {
    this.limiter = options.rateLimit === undefined ? null : new RateLimiter(options.rateLimit);
  }

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  async request(input: string | URL, init: RequestInit = {}): Promise<HttpResponse> {
    let url = new URL(input);
    const redirects: string[] = [];
    for (;;) {
      const response = { ...(await this.once(url, init)), redirects };
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
    await this.limiter?.acquire(this.options.signal);
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
    if (this.options.signal?.aborted) {
      throw new ScanStoppedError('aborted');
    }
    // Guard: the budget bounds how hard one scan can hit a customer's site.
    if (this.requests >= (this.options.maxRequests ?? Number.POSITIVE_INFINITY)) {
      throw new ScanStoppedError('budget');
    }
    const target = await this.options.policy.assertUrl(url);
    this.requests += 1;
    // Every request, redirect hops included, waits for its slot under the target's rate limit.
    await this.limiter?.acquire(this.options.signal);
    const transport = url.protocol === 'https:' ? https : http;
    const maxBody = init.maxBodyBytes ?? this.options.maxBodyBytes ?? 1_000_000;
    const timeout = init.timeoutMs ?? this.options.timeoutMs ?? 10_000;
    const sentAt = performance.now();
    return new Promise((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: init.method ?? 'GET',
          headers: { 'user-agent': userAgent, accept: '*/*', ...init.headers },
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          lookup: pinnedLookup(target),
          signal: this.options.signal,
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
          response.on('error', (error) => (size > maxBody ? finish() : reject(error)));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`timeout after ${timeout} ms`)));
      request.on('error', (error) => {
        reject(this.options.signal?.aborted ? new ScanStoppedError('aborted') : error);
      });
      request.end(init.body);
    });
  }
}
