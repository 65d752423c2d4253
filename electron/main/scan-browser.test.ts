import type { BrowserWindow, Session } from 'electron';
import { describe, expect, it } from 'vitest';

import { ScanBrowserStopped, ScanTabCut } from '../../shared/scan-browser.ts';
import type { ScanBrowserRequest } from '../../shared/scan-browser.ts';
import type { ScanBrowserElectron, ScanSessionLike, ScanWindowLike } from './scan-browser.ts';
import { electronScanBrowser } from './scan-browser.ts';

// Electron's own types fit the interface this module is written against.
const sessionFits: [Session] extends [ScanSessionLike] ? true : false = true;
const windowFits: [BrowserWindow] extends [ScanWindowLike] ? true : false = true;

function fakeElectron() {
  const handlers = new Map<string, (request: Request) => Promise<Response>>();
  const state = {
    proxy: null as null | { proxyRules: string; proxyBypassRules: string },
    windows: [] as {
      options: Record<string, unknown>;
      destroyed: boolean;
      crashed: boolean;
      listeners: string[];
      leavesAnyway: boolean;
      commands: [string, unknown][];
      loaded: string[];
    }[],
    beforeRequest: null as
      | null
      | ((
          d: { url: string; method: string; resourceType: string },
          cb: (r: { cancel: boolean }) => void,
        ) => void),
    permission: null as null | ((...args: unknown[]) => void),
    unhandled: [] as string[],
  };
  const session: ScanSessionLike = {
    protocol: {
      handle: (scheme, handler) => handlers.set(scheme, handler),
      unhandle: (s) => state.unhandled.push(s),
    },
    webRequest: { onBeforeRequest: (_filter, listener) => (state.beforeRequest = listener) },
    setProxy: (config) => {
      state.proxy = config;
      return Promise.resolve();
    },
    setPermissionRequestHandler: (h) => (state.permission = h),
    setPermissionCheckHandler: () => undefined,
  };
  const BrowserWindow = class {
    record: (typeof state.windows)[number];
    webContents;
    constructor(options: Record<string, unknown>) {
      this.record = {
        options,
        destroyed: false,
        crashed: false,
        listeners: [],
        leavesAnyway: false,
        commands: [],
        loaded: [],
      };
      state.windows.push(this.record);
      const record = this.record;
      this.webContents = {
        loadURL: (url: string) => {
          record.loaded.push(url);
          return Promise.resolve();
        },
        // A page whose script never yields: its scripts never answer until its renderer is crashed.
        executeJavaScript: (code: string) =>
          record.loaded.at(-1)?.endsWith('/spin')
            ? new Promise((_resolve, reject) => {
                const wait = setInterval(() => {
                  if (record.crashed) {
                    clearInterval(wait);
                    reject(new Error('Render frame was disposed before WebFrameMain could be accessed'));
                  }
                }, 10);
              })
            : Promise.resolve({ ran: code }),
        getURL: () => record.loaded.at(-1) ?? '',
        forcefullyCrashRenderer: () => {
          record.crashed = true;
        },
        on: (event: string, listener: (e: { preventDefault(): void }) => void) => {
          record.listeners.push(event);
          // A page asking to stay: the engine must let it go.
          let prevented = false;
          listener({ preventDefault: () => (prevented = true) });
          record.leavesAnyway = prevented;
        },
        setWindowOpenHandler: () => undefined,
        debugger: {
          attach: () => undefined,
          sendCommand: (method: string, params?: Record<string, unknown>) => {
            record.commands.push([method, params]);
            return Promise.resolve({});
          },
        },
      };
    }
    destroy() {
      this.record.destroyed = true;
    }
  };
  const electron: ScanBrowserElectron = {
    session: { fromPartition: () => session },
    BrowserWindow: BrowserWindow,
    chromeVersion: '140.0.7339.41',
  };
  return { electron, handlers, state };
}

describe('the Electron scan browser', () => {
  it('answers every http(s) request through the route, with its kind, and never reaches the network', async () => {
    expect(sessionFits && windowFits).toBe(true);
    const { electron, handlers, state } = fakeElectron();
    const seen: ScanBrowserRequest[] = [];
    const browser = await electronScanBrowser(electron)({
      initScript: 'window.__x = 1',
      route: (request) => {
        seen.push(request);
        return Promise.resolve(
          request.url.endsWith('/refused')
            ? { refused: 'another origin' }
            : {
                status: 200,
                headers: [
                  ['set-cookie', 'a=1'],
                  ['set-cookie', 'b=2'],
                  ['content-type', 'text/html'],
                ],
                body: 'hi',
              },
        );
      },
    });
    expect(browser).toMatchObject({ engine: 'electron', version: '140.0.7339.41' });
    expect(state.proxy).toEqual({
      proxyRules: 'vigil-no-network.invalid:9',
      proxyBypassRules: '<-loopback>',
    });
    expect([...handlers.keys()].sort()).toEqual(['http', 'https']);
    state.beforeRequest!(
      { url: 'https://shop.example/', method: 'GET', resourceType: 'mainFrame' },
      () => undefined,
    );
    const page = await handlers.get('https')!(
      new Request('https://shop.example/', { headers: { cookie: 'sid=1' } }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await page.text()).toBe('hi');
    expect(seen[0]).toMatchObject({
      kind: 'document',
      navigation: true,
      headers: { cookie: 'sid=1' },
      body: null,
    });
    state.beforeRequest!(
      { url: 'https://shop.example/api', method: 'POST', resourceType: 'xhr' },
      () => undefined,
    );
    await handlers.get('https')!(
      new Request('https://shop.example/api', { method: 'POST', body: '{"q":1}' }),
    );
    expect(seen[1]).toMatchObject({ kind: 'xhr', navigation: false, body: '{"q":1}', method: 'POST' });
    const refused = await handlers.get('http')!(new Request('http://127.0.0.1/refused'));
    expect(refused.type).toBe('error');
  });

  it('cancels WebSockets, refuses permissions, and instruments each tab before its scripts', async () => {
    const { electron, state } = fakeElectron();
    const browser = await electronScanBrowser(electron)({
      initScript: 'window.__vigil = 1',
      route: () => Promise.resolve({ refused: 'x' }),
    });
    const answers: boolean[] = [];
    state.beforeRequest!(
      { url: 'wss://shop.example/socket', method: 'GET', resourceType: 'webSocket' },
      (r) => answers.push(r.cancel),
    );
    state.beforeRequest!({ url: 'https://shop.example/a.js', method: 'GET', resourceType: 'script' }, (r) =>
      answers.push(r.cancel),
    );
    expect(answers).toEqual([true, false]);
    const granted: boolean[] = [];
    state.permission!(null, 'geolocation', (ok: boolean) => granted.push(ok));
    expect(granted).toEqual([false]);
    const tab = await browser.newTab();
    expect(state.windows[0]!.options).toMatchObject({
      show: false,
      webPreferences: { offscreen: true, sandbox: true, contextIsolation: true, nodeIntegration: false },
    });
    expect(state.windows[0]).toMatchObject({ listeners: ['will-prevent-unload'], leavesAnyway: true });
    expect(state.windows[0]!.commands).toContainEqual([
      'Page.addScriptToEvaluateOnNewDocument',
      { source: 'window.__vigil = 1' },
    ]);
    await tab.goto('https://shop.example/', 1000);
    expect(await tab.url()).toBe('https://shop.example/');
    expect(await tab.evaluate('1 + 1')).toEqual({ ran: '1 + 1' });
    await browser.close();
    expect(state.windows[0]!.destroyed).toBe(true);
    expect(state.unhandled.sort()).toEqual(['http', 'https']);
  });

  it('crashes the renderer of a page that stops answering, reports it, and goes on in a fresh window', async () => {
    const { electron, state } = fakeElectron();
    const cuts: { url: string; reason: string }[] = [];
    const stop = new AbortController();
    const browser = await electronScanBrowser(electron)({
      initScript: '',
      route: () => Promise.resolve({ refused: 'x' }),
      signal: stop.signal,
      onCut: (cut) => cuts.push(cut),
    });
    const tab = await browser.newTab();
    await tab.goto('https://shop.example/spin', 1000);
    await expect(tab.evaluate('document.title', 50)).rejects.toBeInstanceOf(ScanTabCut);
    expect(state.windows[0]).toMatchObject({ crashed: true, destroyed: true });
    expect(cuts).toEqual([
      { url: 'https://shop.example/spin', reason: expect.stringMatching(/over 50 ms/) as unknown },
    ]);
    await tab.goto('https://shop.example/next', 1000);
    expect(await tab.evaluate('1')).toEqual({ ran: '1' });
    expect(state.windows).toHaveLength(2);
    // A stop of the scan ends the browser at once; its tabs then say so.
    stop.abort();
    expect(browser.stopped).toBe('the scan was stopped');
    expect(state.windows[1]!.destroyed).toBe(true);
    await expect(tab.goto('https://shop.example/', 1000)).rejects.toBeInstanceOf(ScanBrowserStopped);
  });
});
