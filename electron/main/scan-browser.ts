// The web scan's browser engine on Electron's own Chromium: an offscreen, sandboxed window in an in-memory
// session of its own, whose every http(s) request is answered by the scan's route (shared/scan-browser.ts)
// through protocol.handle, so the page never touches the network itself; a proxy that cannot exist catches
// what interception does not see (preconnects), WebSockets are cancelled, permissions and pop-ups refused.
// Scans do not run in the desktop process today (the agent worker runs in `npm start`'s Node process or
// `npm run worker`, where webapp/browser/chromium.ts drives a system Chromium); this engine is the same
// interface for a worker hosted by the desktop app. The Electron API is passed in, so it is tested without it.
// Like the Chromium engine, every call on a tab is bounded: a page that stops answering has its renderer
// crashed on purpose (which stops its CPU) and its window replaced. Memory caps are the desktop app's own
// (V8 flags are process-wide in Electron): this engine does not watch the process tree.
import { ScanBrowserStopped, ScanTabCut } from '../../shared/scan-browser.ts';
import { settle } from '../../shared/settle.ts';
import type {
  ScanBrowser,
  ScanBrowserLauncher,
  ScanBrowserOptions,
  ScanBrowserRequest,
  ScanBrowserTab,
  ScanRequestKind,
} from '../../shared/scan-browser.ts';

export interface ScanSessionLike {
  protocol: {
    handle(scheme: string, handler: (request: Request) => Promise<Response>): void;
    unhandle(scheme: string): void;
  };
  webRequest: {
    onBeforeRequest(
      filter: { urls: string[] },
      listener: (
        details: { url: string; method: string; resourceType: string },
        callback: (response: { cancel: boolean }) => void,
      ) => void,
    ): void;
  };
  setProxy(config: { proxyRules: string; proxyBypassRules: string }): Promise<void>;
  setPermissionRequestHandler(handler: (...args: unknown[]) => void): void;
  setPermissionCheckHandler(handler: () => boolean): void;
}

export interface ScanWebContentsLike {
  loadURL(url: string): Promise<void>;
  executeJavaScript(code: string, userGesture?: boolean): Promise<unknown>;
  getURL(): string;
  /** Ends the renderer process at once (a page whose script never yields cannot be asked to stop). */
  forcefullyCrashRenderer(): void;
  /** A page asking "leave this page?": preventing the event's default leaves it anyway. */
  on(event: 'will-prevent-unload', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
  debugger: {
    attach(version: string): void;
    sendCommand(method: string, params?: Record<string, unknown>): Promise<unknown>;
  };
}

export interface ScanWindowLike {
  webContents: ScanWebContentsLike;
  destroy(): void;
}

export interface ScanBrowserElectron {
  session: { fromPartition(partition: string, options: { cache: boolean }): ScanSessionLike };
  BrowserWindow: new (options: Record<string, unknown>) => ScanWindowLike;
  /** process.versions.chrome */
  chromeVersion: string;
}

const kinds: Record<string, ScanRequestKind> = {
  mainFrame: 'document',
  subFrame: 'document',
  script: 'script',
  xhr: 'xhr',
  stylesheet: 'stylesheet',
  image: 'image',
  font: 'font',
  media: 'media',
  webSocket: 'websocket',
};

/** protocol.handle hands over a bare Request; the kind of load comes from webRequest, seen just before. */
function kindTracker() {
  const recent = new Map<string, string[]>();
  return {
    note(method: string, url: string, resourceType: string) {
      const key = `${method} ${url}`;
      recent.set(key, [...(recent.get(key) ?? []), resourceType].slice(-20));
      if (recent.size > 2000) {
        recent.delete(recent.keys().next().value as string);
      }
    },
    take(method: string, url: string): string | null {
      const key = `${method} ${url}`;
      const list = recent.get(key);
      const type = list?.shift() ?? null;
      if (list && list.length === 0) {
        recent.delete(key);
      }
      return type;
    },
  };
}

async function toScanRequest(request: Request, resourceType: string | null): Promise<ScanBrowserRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const dest = headers['sec-fetch-dest'];
  const kind =
    (resourceType ? kinds[resourceType] : undefined) ??
    (dest === 'document' || dest === 'iframe'
      ? 'document'
      : dest === 'empty'
        ? 'xhr'
        : dest
          ? (kinds[dest] ?? 'other')
          : 'other');
  return {
    url: request.url,
    method: request.method,
    headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? null : await request.text(),
    kind,
    navigation:
      resourceType === 'mainFrame' ||
      (!resourceType && headers['sec-fetch-mode'] === 'navigate' && dest === 'document'),
  };
}

/** The same bounds as the Chromium engine (webapp/browser/chromium.ts `browserLimits`). */
export const electronLimits = { evaluateMs: 10_000, probeMs: 2_000 };

interface TabHost {
  open(): Promise<ScanWindowLike>;
  forget(window: ScanWindowLike): void;
  assertRunning(): void;
  cut(url: string, reason: string): void;
}

/** One tab: an offscreen window, replaced by a fresh one when its page stops answering. */
class ElectronTab implements ScanBrowserTab {
  private window: ScanWindowLike | null = null;
  private at = 'about:blank';

  constructor(private readonly host: TabHost) {}

  async contents(): Promise<ScanWebContentsLike> {
    this.host.assertRunning();
    this.window ??= await this.host.open();
    return this.window.webContents;
  }

  private cut(url: string, reason: string): never {
    this.host.cut(url, reason);
    const window = this.window;
    this.window = null;
    if (window) {
      try {
        window.webContents.forcefullyCrashRenderer();
      } catch {
        // Guard: the renderer may be gone already.
      }
      window.destroy();
      this.host.forget(window);
    }
    throw new ScanTabCut(url, reason);
  }

  async goto(url: string, timeoutMs: number): Promise<void> {
    const contents = await this.contents();
    // The blank page a visit passes through: what goes wrong meanwhile is the page being left's doing.
    this.at = url === 'about:blank' ? this.at : url;
    // A page that fails to load (refused, timed out) is still a page to look at, if it answers.
    const loaded = await settle(contents.loadURL(url), timeoutMs);
    this.host.assertRunning();
    if (
      loaded === 'timeout' &&
      (await settle(contents.executeJavaScript('1'), electronLimits.probeMs)) === 'timeout'
    ) {
      this.cut(
        this.at,
        `did not finish loading within ${timeoutMs} ms and stopped answering (a script that never yields)`,
      );
    }
  }

  async evaluate<T>(expression: string, timeoutMs = electronLimits.evaluateMs): Promise<T> {
    const contents = await this.contents();
    const result = await settle(contents.executeJavaScript(expression, false), timeoutMs);
    this.host.assertRunning();
    if (result === 'timeout') {
      this.cut(this.at, `a script in the page ran for over ${timeoutMs} ms without yielding`);
    }
    if ('error' in result) {
      throw result.error;
    }
    return result.value as T;
  }

  url(): Promise<string> {
    return Promise.resolve(this.window ? this.window.webContents.getURL() : 'about:blank');
  }
}

let partitions = 0;

/** Starts a scan browser on Electron's Chromium: one offscreen window per tab, in a fresh session. */
export function electronScanBrowser(electron: ScanBrowserElectron): ScanBrowserLauncher {
  return async ({ route, initScript, signal, onCut }: ScanBrowserOptions) => {
    partitions += 1;
    const session = electron.session.fromPartition(`vigil-scan-${process.pid}-${partitions}`, {
      cache: false,
    });
    await session.setProxy({
      proxyRules: 'vigil-no-network.invalid:9',
      // Loopback is not exempt: everything interception misses must fail.
      proxyBypassRules: '<-loopback>',
    });
    session.setPermissionRequestHandler((...args: unknown[]) => {
      const callback = args[2];
      if (typeof callback === 'function') {
        (callback as (granted: boolean) => void)(false);
      }
    });
    session.setPermissionCheckHandler(() => false);
    const tracker = kindTracker();
    session.webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
      if (details.resourceType === 'webSocket' || /^wss?:/i.test(details.url)) {
        callback({ cancel: true });
        return;
      }
      tracker.note(details.method, details.url, details.resourceType);
      callback({ cancel: false });
    });
    const answer = async (request: Request): Promise<Response> => {
      try {
        const scanRequest = await toScanRequest(request, tracker.take(request.method, request.url));
        const result = await route(scanRequest).catch((error: unknown) => ({ refused: String(error) }));
        if ('refused' in result) {
          return Response.error();
        }
        const headers = new Headers();
        for (const [name, value] of result.headers) {
          headers.append(name, value);
        }
        // A 204 has no body by definition; Response refuses one.
        return new Response(result.status === 204 ? null : result.body, { status: result.status, headers });
      } catch {
        // Guard: a body that cannot be read or a header Response refuses fails that request only.
        return Response.error();
      }
    };
    session.protocol.handle('http', answer);
    session.protocol.handle('https', answer);
    const windows = new Set<ScanWindowLike>();
    let closed = false;
    const host: TabHost = {
      async open() {
        const window = new electron.BrowserWindow({
          show: false,
          width: 1280,
          height: 800,
          webPreferences: {
            session,
            offscreen: true,
            contextIsolation: true,
            sandbox: true,
            nodeIntegration: false,
            webSecurity: true,
            allowRunningInsecureContent: false,
            webviewTag: false,
            spellcheck: false,
          },
        });
        windows.add(window);
        const contents = window.webContents;
        contents.setWindowOpenHandler(() => ({ action: 'deny' }));
        // A page that asks the visitor to stay would keep the tab, and the crawl, forever.
        contents.on('will-prevent-unload', (event) => event.preventDefault());
        // The same instrumentation Playwright's addInitScript gives: before any of the page's scripts.
        contents.debugger.attach('1.3');
        await contents.debugger.sendCommand('Page.enable');
        await contents.debugger.sendCommand('Page.addScriptToEvaluateOnNewDocument', { source: initScript });
        return window;
      },
      forget: (window) => windows.delete(window),
      assertRunning() {
        if (browser.stopped) {
          throw new ScanBrowserStopped(browser.stopped);
        }
      },
      cut: (url, reason) => onCut?.({ url, reason }),
    };
    const browser: ScanBrowser & { stopped: string | null } = {
      engine: 'electron',
      version: electron.chromeVersion,
      sandbox: "on (Electron's renderer sandbox, context isolation, no Node integration)",
      stopped: null,
      async newTab() {
        const tab = new ElectronTab(host);
        await tab.contents();
        return tab;
      },
      close() {
        if (!closed) {
          closed = true;
          signal?.removeEventListener('abort', onAbort);
          for (const window of windows) {
            window.destroy();
          }
          windows.clear();
          session.protocol.unhandle('http');
          session.protocol.unhandle('https');
        }
        return Promise.resolve();
      },
    };
    const onAbort = () => {
      browser.stopped ??= 'the scan was stopped';
      void browser.close();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) {
      onAbort();
    }
    return browser;
  };
}
