// The browser a web scan drives to run a site's JavaScript, as one small interface with two engines:
// Chromium through playwright-core (the agent worker, agents/scanners/webapp/browser/chromium.ts) and
// Electron's own Chromium in an offscreen window (electron/main/scan-browser.ts). The scan never lets an
// engine touch the network: every request the page makes is handed to `route`, which answers it through
// the scanner's policy-checked HTTP client or refuses it. Pages are written by strangers: every call on a
// tab is bounded in time, and a tab whose page stops answering is killed and replaced, never waited for.

/** What kind of load a request is, as Chromium's resource types name it (fewer kinds, same meaning). */
export type ScanRequestKind =
  'document' | 'script' | 'xhr' | 'stylesheet' | 'image' | 'font' | 'media' | 'websocket' | 'other';

export interface ScanBrowserRequest {
  url: string;
  method: string;
  /** Request headers as the page sent them, cookies included; lower-case names. */
  headers: Record<string, string>;
  body: string | null;
  kind: ScanRequestKind;
  /** A top-level navigation of the tab (a document load the address bar would show). */
  navigation: boolean;
}

/** The answer the engine gives the page: a response, or a refusal (a network error in the page). */
export type ScanBrowserAnswer =
  { status: number; headers: [string, string][]; body: string } | { refused: string };

export type ScanBrowserRoute = (request: ScanBrowserRequest) => Promise<ScanBrowserAnswer>;

/**
 * A tab's page stopped answering (a script that never yields), its renderer ran out of memory or was
 * killed for using too much: the engine has closed that page (its renderer is gone, its CPU stopped) and
 * the tab's next call runs in a fresh page. What the page held (sessionStorage, its DOM) is lost.
 */
export class ScanTabCut extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url}: ${reason}`);
    this.name = 'ScanTabCut';
  }
}

/** The browser is gone (killed for its memory, crashed, or the scan was stopped): no page renders any more. */
export class ScanBrowserStopped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ScanBrowserStopped';
  }
}

export interface ScanBrowserTab {
  /**
   * Loads `url` as a top-level navigation; resolves when it has loaded, failed or run out of time (a
   * page that loads slowly is still a page to look at). Throws ScanTabCut when the page stopped answering
   * meanwhile, ScanBrowserStopped when the browser is gone.
   */
  goto(url: string, timeoutMs: number): Promise<void>;
  /**
   * Runs `expression` (a JavaScript expression, usually an IIFE) in the page and returns its value,
   * which must survive JSON; a promise is awaited. Throws when the page navigated away meanwhile, and
   * ScanTabCut when no answer came within `timeoutMs` (the engine's default when absent).
   */
  evaluate<T>(expression: string, timeoutMs?: number): Promise<T>;
  /** The tab's current address, client-side route changes (pushState, hash) included. */
  url(): Promise<string>;
}

export interface ScanBrowser {
  /** Which Chromium runs the pages, as the scan result reports it. */
  readonly engine: 'chromium' | 'electron';
  /** The browser's own version string (e.g. "156.0.8078.79"). */
  readonly version: string;
  /** How the pages are confined, for the scan's report: "on (…)" or "off: <why>". */
  readonly sandbox: string;
  /** Why the browser was stopped before the scan closed it (its memory, a crash, the scan's stop), or null. */
  readonly stopped: string | null;
  newTab(): Promise<ScanBrowserTab>;
  /** Ends the browser and every process it started, waiting for a graceful close only briefly. */
  close(): Promise<void>;
}

/** A page the engine cut short, as the crawl report lists it. */
export interface ScanBrowserCut {
  url: string;
  reason: string;
}

export interface ScanBrowserOptions {
  route: ScanBrowserRoute;
  /** Runs in every page before its own scripts (instrumentation; see webapp/browser/page-scripts.ts). */
  initScript: string;
  /** The scan's stop: the engine then ends the browser at once, whatever its pages are doing. */
  signal?: AbortSignal;
  /** Told of every page the engine cut short (even when the caller ignores the thrown ScanTabCut). */
  onCut?: (cut: ScanBrowserCut) => void;
}

/** Starts a browser for one scan; throws when it cannot start (the scan then falls back to the HTML crawl). */
export type ScanBrowserLauncher = (options: ScanBrowserOptions) => Promise<ScanBrowser>;
