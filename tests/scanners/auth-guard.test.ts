// An authenticated scan of a site whose logged-in pages offer to delete the account, remove an address and
// log out: with every phase running (crawl, discovery, exposed files, write methods, probes, injection,
// error pages), nothing that could destroy the account's data or end the session is sent with the
// session; what anyone may write is still proven, and the files written are removed again; the account's
// own profile is no personal-data finding, the directory open to anyone is. HTML crawl only (no browser).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { findingSchema } from '../../shared/findings.ts';
import type { RunningAccountSite } from '../fixtures/web/account-site.ts';
import { startAccountSite } from '../fixtures/web/account-site.ts';
import { measure } from './measure.ts';

describe('authenticated web scan on a site with destructive account actions', () => {
  let site: RunningAccountSite;
  beforeAll(async () => {
    site = await startAccountSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('never deletes, removes or logs out in the session, and judges open APIs without it', async () => {
    const result = await runScan('webapp', {
      target: site.target,
      mode: 'local',
      // The write probe (without the session) runs too: the guard must hold for intrusive checks as well.
      allowIntrusive: true,
      login: site.login,
      browser: null,
    });
    expect(result.crawl?.login).toMatchObject({ kind: 'form', status: 'logged-in', renewals: 0 });
    // The session really reached the account's pages and their parameters were probed in it.
    const inSession = site.seen.filter((r) => r.session);
    expect(inSession.some((r) => r.path === '/account/orders')).toBe(true);
    expect(inSession.filter((r) => r.path === '/account/profile').length).toBeGreaterThan(5);
    expect(site.harmed).toEqual([]);
    expect(inSession.filter((r) => r.method === 'DELETE' || /delete|remove|logout/.test(r.path))).toEqual([]);
    const m = measure(result.findings, site.planted, site.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    for (const finding of result.findings) {
      expect(findingSchema.parse(finding)).toEqual(finding);
    }
    // Anyone may write into /files/: proven without the session, and the files written are gone again.
    expect(site.seen.filter((r) => r.method === 'PUT').length).toBeGreaterThan(0);
    expect(site.seen.filter((r) => r.session && ['PUT', 'MKCOL', 'COPY', 'MOVE'].includes(r.method))).toEqual(
      [],
    );
    expect(site.files()).toEqual([]);
  });
});
