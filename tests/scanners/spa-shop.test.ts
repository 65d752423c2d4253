// The single-page shop (tests/fixtures/spa/spa-shop.ts): nginx serving an empty shell and a bundle, a JSON API
// behind it, a login. Rendered in Chromium the scan sees what the planted list says, before and after
// logging in; it notices the session ending and logs in again; it never logs itself out; the hardened twin
// raises nothing; without a browser the shop is an empty page, and the scan says why it saw so little.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { RunningShop } from '../fixtures/spa/spa-shop.ts';
import type { RunningDesk } from '../fixtures/spa/spa-desk.ts';
import { chromium, debianFile } from '../fixtures/debian-packages.ts';
import { spaDeskNeeds, startSpaDesk } from '../fixtures/spa/spa-desk.ts';
import { spaShopNeeds, startSpaShop } from '../fixtures/spa/spa-shop.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const shopNeeds = requires(...Object.values(spaShopNeeds).map(debianFile), chromium());
const deskNeeds = requires(...Object.values(spaDeskNeeds).map(debianFile), chromium());

/**
 * What a crawl that does not run JavaScript can see of the shop: the shell's headers, the bundle's map, and
 * the open redirect of an API path the endpoint discovery reads in the bundle.
 */
const withoutJs = new Set([
  'web.open-redirect',
  'web.transport.cleartext',
  'web.header.csp-missing',
  'web.header.nosniff-missing',
  'web.header.referrer-policy-missing',
  'web.header.permissions-policy-missing',
  'web.clickjacking',
  'web.disclosure.server-version',
  'web.exposed.source-map',
]);

describe('web scanner on a single-page shop with a login and an API', shopNeeds, () => {
  let shop: RunningShop;
  let twin: RunningShop;
  beforeAll(async () => {
    // Sessions end after 25 authenticated requests: the logged-in scan must notice and log in again (at
    // most three times: the NoSQL probes made 12 too few for a scan that renews three times at most).
    [shop, twin] = await Promise.all([startSpaShop({ sessionUses: 25 }), startSpaShop({ hardened: true })]);
  });
  afterAll(async () => {
    await Promise.all([shop?.close(), twin?.close()]);
  });

  it('renders the shop and finds what an unauthenticated visitor can see, and nothing else', async () => {
    const result = await runScan('webapp', { target: shop.target, mode: 'local' });
    const m = measure(result.findings, shop.publicPlanted, shop.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.crawl?.engine).toBe('chromium');
    expect(result.crawl?.browser).toMatch(/^\d+\./);
    expect(result.crawl!.api_calls).toBeGreaterThanOrEqual(5);
    expect(result.crawl!.login).toBeUndefined();
  });

  it('logs in through the page, renews the lost session, never logs out, and finds the rest', async () => {
    const before = shop.events.length;
    const result = await runScan('webapp', { target: shop.target, mode: 'local', login: shop.login });
    const m = measure(result.findings, shop.planted, shop.target);
    // What the crawl and the login did, should anything be missed.
    expect(m.missed, JSON.stringify({ crawl: result.crawl, phase_errors: result.phase_errors })).toEqual([]);
    expect(m.unexpected).toEqual([]);
    const events = shop.events.slice(before);
    expect(result.crawl?.login, JSON.stringify(result.crawl)).toMatchObject({
      kind: 'form',
      status: 'logged-in',
    });
    expect(result.crawl!.login!.renewals).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.startsWith('EXPIRED')).length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.startsWith('LOGIN')).length).toBe(1 + result.crawl!.login!.renewals);
    expect(events).not.toContain('LOGOUT');
    // Evidence names what was found, never the credentials or the session's token.
    const evidence = result.findings.map((f) => f.evidence).join('\n');
    expect(evidence).not.toContain(shop.login.kind === 'form' ? shop.login.password : '');
    expect(evidence).not.toMatch(/eyJ[\w-]{10,}\.eyJ/);
    expect(result.findings.find((f) => f.rule_id === 'web.auth.idor')?.evidence).toMatch(
      /session of a…@acme\.test.*\/api\/users\/1 .*another user's record \(a…@acme\.test\)/,
    );
  });

  it('raises nothing on the hardened twin but plain HTTP, logged in or not', async () => {
    const result = await runScan('webapp', { target: twin.target, mode: 'local', login: twin.login });
    const m = measure(result.findings, twin.planted, twin.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.crawl?.login, JSON.stringify(result.crawl)).toMatchObject({
      status: 'logged-in',
      renewals: 0,
    });
    expect(result.crawl!.api_calls).toBeGreaterThanOrEqual(5);
    expect(twin.events).not.toContain('LOGOUT');
  });

  it('sees an empty page without a browser, and says why the login failed', async () => {
    const result = await runScan('webapp', {
      target: shop.target,
      mode: 'local',
      browser: null,
      login: shop.login,
    });
    const m = measure(
      result.findings,
      shop.planted.filter((p) => withoutJs.has(p.rule_id)),
      shop.target,
    );
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.crawl).toMatchObject({
      engine: 'html',
      rendered: 0,
      api_calls: 0,
      reason: 'the HTML crawl was asked for',
    });
    expect(result.crawl?.login?.status).toBe('failed');
    expect(result.crawl?.login?.detail).toMatch(/JavaScript login needs the browser/);
  });
});

describe(
  'web scanner on a second, different single-page app (lighttpd, hash routes, sessionStorage)',
  deskNeeds,
  () => {
    let desk: RunningDesk;
    beforeAll(async () => {
      desk = await startSpaDesk();
    });
    afterAll(async () => {
      await desk?.close();
    });

    it('finds what the planted list says, before and after logging in with its own markup', async () => {
      const visitor = await runScan('webapp', { target: desk.target, mode: 'local' });
      const before = measure(visitor.findings, desk.publicPlanted, desk.target);
      expect(before.missed).toEqual([]);
      expect(before.unexpected).toEqual([]);
      const member = await runScan('webapp', { target: desk.target, mode: 'local', login: desk.login });
      const after = measure(member.findings, desk.planted, desk.target);
      expect(after.missed).toEqual([]);
      expect(after.unexpected).toEqual([]);
      expect(member.crawl?.login).toMatchObject({ status: 'logged-in', renewals: 0 });
      expect(member.crawl?.login?.detail).toMatch(/at \/#\/login, landed on \/#\/me/);
      // Only "alg": "none" fools this one: the forged signature is refused.
      expect(member.findings.find((f) => f.rule_id === 'web.auth.jwt-unverified')?.evidence).toMatch(
        /"alg": "none" and no signature$/,
      );
      expect(desk.events).not.toContain('LOGOUT');
    });
  },
);
