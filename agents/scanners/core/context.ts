// What every scanner receives and returns.
import type { Finding, ScanType } from '../../../shared/findings.ts';
import type { ScanBrowserLauncher } from '../../../shared/scan-browser.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { ScanMode, Resolver } from '../target-policy.ts';
import type { ProgressCallback } from './progress.ts';

export interface ScanOptions {
  target: string;
  mode: ScanMode;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Infrastructure: port list such as "22,80,8000-8100"; default the bundled top 1000. */
  ports?: string;
  /** API: where the OpenAPI document is; default discovery at well-known paths. */
  openapi?: string;
  /**
   * Web and API: requests per second the scan may send (the target's rate limit, shared by all of the
   * scan's concurrent requests); unlimited when absent.
   */
  rateLimit?: number;
  /** Test seam for DNS; production uses the system resolver. */
  resolver?: Resolver;
  /**
   * Web: the browser that renders pages (the desktop app passes Electron's); null for the HTML crawl
   * only; absent, a system Chromium when one is installed (ScannerSettings).
   */
  browser?: { launch: ScanBrowserLauncher; engine: 'chromium' | 'electron' } | null;
  /** Web: the target's login; the scan then also crawls and probes in the logged-in session. */
  login?: TargetLogin;
}

/** How an authenticated scan's login went. */
export interface LoginReport {
  kind: TargetLogin['kind'];
  status: 'logged-in' | 'failed' | 'expired';
  detail: string;
  /** Times the session was found lost and logged in again. */
  renewals: number;
}

/** Web scans, beside `stats`: which crawl ran, what it saw, and how the login went. */
export interface CrawlReport {
  engine: 'chromium' | 'electron' | 'html';
  /** The browser's version, when pages were rendered. */
  browser?: string;
  /** Why no page was rendered (no Chromium here, turned off, it did not start, no page runs scripts). */
  reason?: string;
  pages: number;
  /** Pages rendered with their JavaScript. */
  rendered: number;
  /** Requests the app's own JavaScript made (XHR and fetch). */
  api_calls: number;
  login?: LoginReport;
  /** How the browser's pages were confined: "on, as nobody (uid 65534)", or "off: <why>". */
  sandbox?: string;
  /** Pages the browser cut short, and why (the first 20; `cut_total` counts them all). */
  cut?: { url: string; reason: string }[];
  cut_total?: number;
  /** Why rendering stopped before the crawl was done (the browser killed for its memory, a crash). */
  stopped?: string;
  /** What the browser's request and memory bounds held back (present when they held anything back). */
  bounds?: {
    requests_refused: number;
    bodies_trimmed: number;
    bodies_dropped: number;
    exchanges_unrecorded: number;
  };
}

export interface ScanResult {
  target: string;
  type: ScanType;
  findings: Finding[];
  stats: { requests: number; duration_ms: number };
  /** Web scans: which crawl ran (HTML only, or pages rendered in Chromium or Electron). */
  crawl?: CrawlReport;
  /** True when the scan was stopped (abort) or hit its budget before every check ran. */
  partial: boolean;
}

/** Findings of one scan, one per rule and location. */
export class FindingSet {
  private readonly byKey = new Map<string, Finding>();

  add(finding: Finding): void {
    const key = `${finding.rule_id}\u0000${finding.location}`;
    if (!this.byKey.has(key)) {
      this.byKey.set(key, finding);
    }
  }

  has(ruleId: string, location?: string): boolean {
    return [...this.byKey.values()].some(
      (f) => f.rule_id === ruleId && (location === undefined || f.location === location),
    );
  }

  list(): Finding[] {
    return [...this.byKey.values()];
  }
}
