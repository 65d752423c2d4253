// The browser a web scan drives to run a site's JavaScript, as one small interface with two engines:
// Chromium through playwright-core (the agent worker, agents/scanners/webapp/browser/chromium.ts) and
// Electron's own Chromium in an offscreen window (electron/main/scan-browser.ts). The scan never lets an
// engine touch the network: every request the page makes is handed to `route`, which answers it through
// the scanner's policy-checked HTTP client or refuses it.

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

export interface ScanBrowserTab {
  /** Loads `url` as a top-level navigation; resolves when it has loaded or failed (never throws). */
  goto(url: string, timeoutMs: number): Promise<void>;
  /**
   * Runs `expression` (a JavaScript expression, usually an IIFE) in the page and returns its value,
   * which must survive JSON; a promise is awaited. Throws when the page navigated away meanwhile.
   */
  evaluate<T>(expression: string): Promise<T>;
  /** The tab's current address, client-side route changes (pushState, hash) included. */
  url(): Promise<string>;
}

export interface ScanBrowser {
  /** Which Chromium runs the pages, as the scan result reports it. */
  readonly engine: 'chromium' | 'electron';
  /** The browser's own version string (e.g. "156.0.8078.79"). */
  readonly version: string;
  newTab(): Promise<ScanBrowserTab>;
  close(): Promise<void>;
}

export interface ScanBrowserOptions {
  route: ScanBrowserRoute;
  /** Runs in every page before its own scripts (instrumentation; see webapp/browser/page-scripts.ts). */
  initScript: string;
}

/** Starts a browser for one scan; throws when it cannot start (the scan then falls back to the HTML crawl). */
export type ScanBrowserLauncher = (options: ScanBrowserOptions) => Promise<ScanBrowser>;
