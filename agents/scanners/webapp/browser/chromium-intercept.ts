// How the scan's Chromium hands every request of its pages to the scan's route (the policy-checked HTTP
// client, webapp/browser/router.ts), closes WebSockets and pop-ups before they do anything, and runs the
// scan's instrumentation before each page's own scripts.
import type { BrowserContext, Request, Route } from 'playwright-core';

import type {
  ScanBrowserOptions,
  ScanBrowserRequest,
  ScanRequestKind,
} from '../../../../shared/scan-browser.ts';

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

export async function intercept(context: BrowserContext, options: ScanBrowserOptions): Promise<void> {
  await context.addInitScript({ content: options.initScript });
  await context.route(
    () => true,
    async (intercepted: Route) => {
      // Guard: the page, its tab or the whole browser may be gone at any step (Playwright then rejects
      // with TargetClosedError, from allHeaders() as from fulfill()): there is nobody left to answer,
      // and a rejection here would be unhandled.
      try {
        const request = await toScanRequest(intercepted.request());
        const answer = await options.route(request).catch((error: unknown) => ({ refused: String(error) }));
        await ('refused' in answer
          ? intercepted.abort('blockedbyclient')
          : intercepted.fulfill({
              status: answer.status,
              headers: headerRecord(answer.headers),
              body: answer.body,
            }));
      } catch {
        await intercepted.abort('blockedbyclient').catch(() => undefined);
      }
    },
  );
  // WebSockets are not scanned: they are closed before they connect.
  await context.routeWebSocket(
    () => true,
    (ws) => void ws.close().catch(() => undefined),
  );
  // Pop-ups opened by the page are closed at once; the crawl visits what it chooses, in its own tab.
  context.on('page', (popup) => {
    void popup
      .opener()
      .then((opener) => (opener ? popup.close() : undefined))
      .catch(() => undefined);
  });
  // The blank page a persistent profile opens with is not one of the scan's tabs.
  for (const page of context.pages()) {
    await page.close().catch(() => undefined);
  }
}
