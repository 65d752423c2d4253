// The worker's browser engine: a system Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH) driven
// by playwright-core, which never downloads a browser. Every request of every page is intercepted and
// answered by the scan's route (the policy-checked HTTP client); Chromium itself is given a proxy that
// cannot exist and a resolver that resolves nothing, so anything that would escape interception
// (preconnects, a redirect Chromium follows on its own, WebSockets, WebRTC) fails instead of reaching
// the network. (Interception alone is not enough: Chromium's loading predictor opens connections to hosts
// it saw on earlier loads of a page, frames and form targets included, before any request exists; the
// hosted-policy suite records such connections when these flags are left out.)
import { accessSync, constants } from 'node:fs';

import { chromium } from 'playwright-core';
import type { BrowserContext, Page, Request, Route } from 'playwright-core';

import type {
  ScanBrowser,
  ScanBrowserLauncher,
  ScanBrowserRequest,
  ScanBrowserTab,
  ScanRequestKind,
} from '../../../../shared/scan-browser.ts';

export const defaultChromiumPath = '/usr/bin/chromium';

/** The flags of issue 15, then the ones that cut Chromium off from the network outside interception. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--dns-prefetch-disable',
  '--proxy-server=http://vigil-no-network.invalid:9',
  // Chromium sends loopback past any proxy unless told not to: loopback must fail like the rest.
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** The Chromium to drive, if one is installed and executable here. */
export function findChromium(configured: string | undefined): string | null {
  const candidate = configured ?? defaultChromiumPath;
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return null;
  }
}

const kinds: Record<string, ScanRequestKind> = {
  document: 'document',
  script: 'script',
  xhr: 'xhr',
  fetch: 'xhr',
  eventsource: 'xhr',
  stylesheet: 'stylesheet',
  image: 'image',
  font: 'font',
  media: 'media',
  websocket: 'websocket',
};

function isTopLevel(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    // Guard: requests of service workers have no frame; they are never navigations.
    return false;
  }
}

async function toScanRequest(request: Request): Promise<ScanBrowserRequest> {
  return {
    url: request.url(),
    method: request.method(),
    headers: await request.allHeaders(),
    body: request.postData(),
    kind: kinds[request.resourceType()] ?? 'other',
    navigation: isTopLevel(request),
  };
}

/** Playwright takes one value per header name; Set-Cookie lines are joined by newlines, as it expects. */
function headerRecord(pairs: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}${key === 'set-cookie' ? '\n' : ', '}${value}` : value;
  }
  return out;
}

function tab(page: Page): ScanBrowserTab {
  return {
    async goto(url, timeoutMs) {
      // A page that fails to load (refused, timed out) is still a page to look at: the error is ignored.
      await page.goto(url, { timeout: timeoutMs, waitUntil: 'load' }).catch(() => undefined);
    },
    evaluate: <T>(expression: string) => page.evaluate<T>(expression),
    url: () => Promise.resolve(page.url()),
  };
}

/** Starts Debian's Chromium (or `executablePath`) for one scan. */
export function chromiumLauncher(executablePath: string): ScanBrowserLauncher {
  return async ({ route, initScript }) => {
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: chromiumFlags,
      timeout: 30_000,
    });
    let context: BrowserContext;
    try {
      context = await browser.newContext({
        serviceWorkers: 'block',
        acceptDownloads: false,
        ignoreHTTPSErrors: true,
      });
      await context.addInitScript({ content: initScript });
      await context.route(
        () => true,
        async (intercepted: Route) => {
          const answer = await route(await toScanRequest(intercepted.request())).catch((error: unknown) => ({
            refused: String(error),
          }));
          // Guard: the page (or the whole browser) may be gone by the time the answer is ready.
          await (
            'refused' in answer
              ? intercepted.abort('blockedbyclient')
              : intercepted.fulfill({
                  status: answer.status,
                  headers: headerRecord(answer.headers),
                  body: answer.body,
                })
          ).catch(() => undefined);
        },
      );
      // WebSockets are not scanned: they are closed before they connect.
      await context.routeWebSocket(
        () => true,
        (ws) => ws.close(),
      );
      // Pop-ups opened by the page are closed at once; the crawl visits what it chooses, in its own tab.
      context.on('page', (popup) => {
        void popup
          .opener()
          .then((opener) => (opener ? popup.close() : undefined))
          .catch(() => undefined);
      });
    } catch (error) {
      await browser.close();
      throw error;
    }
    const scanBrowser: ScanBrowser = {
      engine: 'chromium',
      version: browser.version(),
      async newTab() {
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        // A dialog the init script could not stub (one opened by a frame's javascript: URL) is dismissed.
        page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
        return tab(page);
      },
      async close() {
        await browser.close().catch(() => undefined);
      },
    };
    return scanBrowser;
  };
}
