import type { BrowserWindow, Session } from 'electron';
import { describe, expect, it } from 'vitest';

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
      this.record = { options, destroyed: false, commands: [], loaded: [] };
      state.windows.push(this.record);
      const record = this.record;
      this.webContents = {
        loadURL: (url: string) => {
          record.loaded.push(url);
          return Promise.resolve();
        },
        executeJavaScript: (code: string) => Promise.resolve({ ran: code }),
        getURL: () => record.loaded.at(-1) ?? '',
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
});
