// What every scanner receives and returns.
import type { Finding, ScanType } from '../../../shared/findings.ts';
import type { ScanBrowserLauncher } from '../../../shared/scan-browser.ts';
import type { CategoryReport } from '../../../shared/scan-categories.ts';
import type { TargetLogin } from '../../../shared/target-login.ts';
import type { ScanMode, Resolver } from '../target-policy.ts';
import type { PhaseOutcome } from './phases.ts';
import type { ProgressCallback } from './progress.ts';

export interface ScanOptions {
  target: string;
  mode: ScanMode;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Each finding as it is made (and again when revised): the scan process streams them out, so a scan
   * that is killed still reports what it found. */
  onFinding?: (finding: Finding) => void;
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
  /**
   * The target's owner allows intrusive checks (they change the target to prove a problem, writing only
   * markers of their own, and clean up). Absent or false: they are left out, and the result says so.
   */
  allowIntrusive?: boolean;
  /**
   * The scan's time limit in milliseconds: at it, the running phase is stopped and the scan ends with
   * what it found (partial, stopped for 'deadline'). The isolated runner (scan-process.ts) also enforces
   * it from outside, so a scan that does not heed it is ended anyway.
   */
  timeLimitMs?: number;
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

/** Web scans: the places that got the per-place checks (agents/scanners/webapp/places.ts). */
export interface PlacesReport {
  /** Places that got the per-place checks. */
  checked: number;
  /** Of those, by what found them first. */
  linked: number;
  discovered: number;
  listed: number;
  wordlist: number;
  /** Requests the wordlist cost (its entries and their parents' missing answers). */
  wordlist_requests: number;
}

/**
 * `partial` is true when the scan was stopped (`stopped` says why: cancelled, its time limit, its memory
 * cap, its request budget, a crash) or a phase failed (`phase_errors`); what it found is kept either way.
 */
export interface ScanResult extends PhaseOutcome {
  target: string;
  type: ScanType;
  findings: Finding[];
  stats: { requests: number; duration_ms: number };
  /** Web scans: which crawl ran (HTML only, or pages rendered in Chromium or Electron). */
  crawl?: CrawlReport;
  /**
   * Web scans: how many places (directories) got the per-place checks, by what found them, and what the
   * wordlist of common directories cost (agents/scanners/webapp/places.ts).
   */
  places?: PlacesReport;
  /**
   * Which categories of checks ran, and which were left out for lack of the owner's consent (absent
   * only when the scan process ended without handing back its result: scan-process.ts).
   */
  categories?: CategoryReport;
}

/** Findings of one scan, one per rule and location. */
export class FindingSet {
  private readonly byKey = new Map<string, Finding>();

  constructor(private readonly onFinding?: (finding: Finding) => void) {}

  add(finding: Finding): void {
    const key = `${finding.rule_id}\u0000${finding.location}`;
    if (!this.byKey.has(key)) {
      this.byKey.set(key, finding);
      this.onFinding?.(finding);
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

  /** Replaces each finding with what `change` makes of it (same rule and location). */
  revise(change: (finding: Finding) => Finding): void {
    for (const [key, finding] of this.byKey) {
      const changed = change(finding);
      if (changed !== finding) {
        this.byKey.set(key, changed);
        this.onFinding?.(changed);
      }
    }
  }
}
