import { Script } from 'node:vm';

import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import type { Page } from '../crawl.ts';
import { parseHtml } from '../html.ts';
import { send } from '../parameter-probes.ts';
import type { HttpClient } from '../../core/http-client.ts';
import { domSinkScript } from './dom-sinks.ts';
import { domPayloads, routeTargets, withValues } from './dom-xss.ts';
import { fillScript, listFormsScript } from './form-scripts.ts';
import { urlParamNames } from './url-params.ts';
import { riskyForm, signUpForm } from './form-exercise.ts';
import { initScript, snapshotScript } from './page-scripts.ts';

const response: HttpResponse = {
  url: 'https://app.example/',
  status: 200,
  headers: {},
  body: '',
  redirects: [],
};
const page = (href: string, html = '<html><script src="/app.js"></script></html>'): Page => ({
  url: new URL(href),
  response,
  facts: parseHtml(html, new URL(href)),
  depth: 0,
});

describe('DOM XSS targets', () => {
  it("reads the URL parameters an app's scripts ask for, not method names", () => {
    const js =
      'const q=new URLSearchParams(location.search).get("q");this.route.snapshot.queryParams.sort;' +
      "r.queryParams.subscribe(x=>x);m.queryParamMap.get('page');$location.search().term;this.$route.query.tab";
    expect(urlParamNames(js).sort()).toEqual(['page', 'q', 'sort', 'tab', 'term']);
  });

  it('tries each route shape once, hash routes in their own query, with stable locations', () => {
    const targets = routeTargets(
      [
        page('https://app.example/?name=guest'),
        page('https://app.example/?name=other'),
        page('https://app.example/#/search?q=lamp'),
        page('https://app.example/?name=guest#/search?q=lamp'),
        page('https://app.example/#/about'),
      ],
      ['term'],
      { maxRoutes: 10, paramsPerRoute: 4 },
    );
    expect(targets.map((t) => [t.in, t.params, t.location(t.params[0]!)])).toEqual([
      ['query', ['name', 'term'], 'https://app.example/?name='],
      ['hash', ['q', 'term'], 'https://app.example/#/search?q='],
      ['hash', ['term'], 'https://app.example/#/about?term='],
    ]);
    const url = withValues(targets[1]!, new Map([['q', domPayloads[1]!(7)]]));
    expect(url.hash).toBe("#/search?q=%22'%3E%3Cimg%20src%3Dx%20onerror%3D__vigilDom(7)%3E");
    expect(decodeURIComponent(url.hash.split('q=')[1]!)).toBe(`"'><img src=x onerror=__vigilDom(7)>`);
  });

  it('tries routes whose URLs carried parameters before those that only may read one', () => {
    const pages = [
      ...Array.from({ length: 6 }, (_, i) => page(`https://app.example/#/page${i}`)),
      page('https://app.example/#/search?q=lamp'),
    ];
    const targets = routeTargets(pages, ['q'], { maxRoutes: 3, paramsPerRoute: 2 });
    expect(targets.map((t) => t.location('q'))).toEqual([
      'https://app.example/#/search?q=',
      'https://app.example/#/page0?q=',
      'https://app.example/#/page1?q=',
    ]);
  });

  it('tries pages that were slow or flooding to render after the others', () => {
    const pages = ['/flood', '/app', '/about'].map((path) => page(`https://app.example${path}`));
    const targets = routeTargets(pages, ['q'], { maxRoutes: 3, paramsPerRoute: 1 }, (url) =>
      url.pathname.startsWith('/flood'),
    );
    expect(targets.map((t) => t.location('q'))).toEqual([
      'https://app.example/app?q=',
      'https://app.example/about?q=',
      'https://app.example/flood?q=',
    ]);
  });

  it('leaves out documents without a script (files, listings): nothing there writes into the page', () => {
    const targets = routeTargets(
      [
        page('https://app.example/files/notes.md?v=1', '<pre>notes</pre>'),
        page('https://app.example/#/search?q=x'),
      ],
      ['q'],
      { maxRoutes: 5, paramsPerRoute: 2 },
    );
    expect(targets.map((t) => t.location(t.params[0]!))).toEqual(['https://app.example/#/search?q=']);
  });

  it('bounds the routes and the parameters per route', () => {
    const pages = Array.from({ length: 30 }, (_, i) => page(`https://app.example/#/r${i}?a=1&b=2&c=3`));
    const targets = routeTargets(pages, [], { maxRoutes: 5, paramsPerRoute: 2 });
    expect(targets).toHaveLength(5);
    expect(targets.every((t) => t.params.length === 2)).toBe(true);
  });
});

describe('page scripts', () => {
  it('are valid JavaScript (a syntax error would silently stop the rendering)', () => {
    for (const script of [initScript, domSinkScript, snapshotScript, listFormsScript, fillScript(0, {})]) {
      // Compiled, never run: a syntax error throws here.
      expect(() => new Script(script)).not.toThrow();
    }
  });

  it('never sends forms that delete, pay, order, reset or log out', () => {
    for (const words of [
      'Delete my account',
      'Log out',
      'Pay now',
      'checkout',
      'Place order',
      'Unsubscribe',
      'Reset password',
    ]) {
      expect(riskyForm.test(words), words).toBe(true);
    }
    for (const words of ['Log in', 'Search', 'Send feedback', 'Subscribe', 'Register']) {
      expect(riskyForm.test(words), words).toBe(false);
    }
  });

  it('knows a sign-up (sent only with consent to intrusive checks) by its words or its two password fields', () => {
    expect(signUpForm({ words: '/register register Submit', names: ['name', 'username', 'email'] })).toBe(
      true,
    );
    expect(signUpForm({ words: 'Create an account', names: ['email'] })).toBe(true);
    expect(signUpForm({ words: '/account', names: ['email', 'password', 'cpassword'] })).toBe(true);
    expect(signUpForm({ words: '/login Sign in', names: ['username', 'password'] })).toBe(false);
    expect(signUpForm({ words: '/search Go', names: ['q'] })).toBe(false);
  });
});

describe('probes on a JSON endpoint', () => {
  it("send the app's own body with one field replaced, as JSON", async () => {
    const sent: { url: string; body?: string; type?: string; accept?: string }[] = [];
    const client = {
      tryRequest: (url: URL | string, init: { body?: string; headers?: Record<string, string> }) => {
        sent.push({
          url: String(url),
          body: init.body,
          type: init.headers?.['content-type'],
          accept: init.headers?.accept,
        });
        return Promise.resolve(null);
      },
    } as unknown as HttpClient;
    const endpoint = {
      url: new URL('https://app.example/api/login'),
      method: 'POST' as const,
      params: ['email', 'password'],
      json: { email: 'vigil.scan@example.com', password: 'x', remember: true, nested: { a: 1 } },
    };
    await send(client, endpoint, 'email', `1'"`);
    expect(sent).toEqual([
      {
        url: 'https://app.example/api/login',
        type: 'application/json',
        accept: 'application/json, text/plain, */*',
        body: JSON.stringify({ email: `1'"`, password: 'x', remember: true, nested: { a: 1 } }),
      },
    ]);
  });
});
