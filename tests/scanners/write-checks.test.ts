// The intrusive write checks (stored XSS, writes without a session, mass assignment) on two apps of
// different frameworks written as their docs show (tests/fixtures/web/write-apps.ts): each problem found at
// its place in the open variant, none in the guarded twin, the marker records they could delete gone again,
// and, with the owner's consent off, not one write of theirs at the server. HTML crawl (no browser), logged
// in, so that the ticket API that only a session may read is known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { ScanResult } from '../../agents/scanners/core/context.ts';
import { chromium } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { startSpaSignup, startWriteApp, writeRules } from '../fixtures/web/write-apps.ts';
import { requires } from '../helpers/requirements.ts';
import type { RunningWriteApp, SeenRequest } from '../fixtures/web/write-apps.ts';
import { measure } from './measure.ts';

// The app's resources, and not the made-up names (`vigil-<hex>`) the active error-page check sends a cut-off
// JSON body to with POST, PATCH and DELETE (docs/scanners/checks.md §6): no record has such an id.
const resourcePaths =
  /^\/(api\/(notes|tickets|users|bookmarks|products)|guestbook)(\/(?!vigil-[0-9a-f]+$)|$)/;
/** Requests that could change the app's data: any body that carries a marker, any write to its resources. */
const writesOfOurs = (seen: SeenRequest[]) =>
  seen.filter(
    (r) =>
      r.body.includes('vigil-marker-') ||
      (resourcePaths.test(r.path) && ['PUT', 'PATCH', 'DELETE'].includes(r.method)) ||
      (resourcePaths.test(r.path) && r.method === 'POST' && r.type.includes('json')),
  );
const chromiumNeeded = requires(chromium());

const byMethod = (seen: SeenRequest[]) => {
  const count = (method: string) =>
    seen.filter((r) => r.method === method && resourcePaths.test(r.path)).length;
  return { POST: count('POST'), PUT: count('PUT'), PATCH: count('PATCH'), DELETE: count('DELETE') };
};

for (const framework of ['express', 'hono'] as const) {
  for (const variant of ['open', 'guarded'] as const) {
    describe(`write checks: ${framework}, ${variant}`, () => {
      let app: RunningWriteApp;
      let result: ScanResult;
      beforeAll(async () => {
        app = await startWriteApp(framework, variant);
        result = await runScan('webapp', {
          target: app.target,
          mode: 'local',
          allowIntrusive: true,
          login: app.login,
          browser: null,
        });
      }, 180_000);
      afterAll(async () => {
        await app?.close();
      });

      it('finds each planted problem at its place, and nothing else of these rules', () => {
        const m = measure(
          result.findings.filter((f) => writeRules.includes(f.rule_id)),
          app.planted,
          app.target,
        );
        expect(m.missed).toEqual([]);
        expect(m.unexpected).toEqual([]);
        expect(result.categories?.ran).toContain('intrusive');
      });

      it('writes only its own markers, never changes what it did not make, and deletes what it may', () => {
        const data = app.data();
        // The records the app held before the scan are as they were.
        expect(data.products[0]).toEqual({ id: 1, name: 'Apple juice', price: 1.99 });
        expect(data.bookmarks[0]).toEqual({ id: 1, url: 'https://example.com/handbook', label: 'Handbook' });
        expect(data.notes.find((n) => n.id === 1)).toEqual({
          id: 1,
          title: 'Welcome',
          body: 'Opening hours are 9 to 5.',
        });
        expect(data.tickets[0]).toEqual({
          id: 1,
          subject: 'Printer jam',
          detail: 'The second-floor printer jams on A3.',
        });
        expect(data.users[0]).toEqual({ id: 1, email: 'ada@example.com', role: 'admin', isAdmin: true });
        // No PATCH, PUT or DELETE reached a record it did not make (only ids above the ones the app had).
        const touched = app.seen.filter(
          (r) => ['PATCH', 'PUT', 'DELETE'].includes(r.method) && /^\/api\/notes\/1$/.test(r.path),
        );
        expect(touched).toEqual([]);
        if (variant === 'open') {
          // The notes it made without a session it also deleted without one.
          expect(data.notes.filter((n) => JSON.stringify(n).includes('vigil-marker-'))).toEqual([]);
          const write = result.findings.find(
            (f) => f.rule_id === 'web.auth.unauth-write' && f.location.endsWith('/api/notes'),
          )!;
          expect(write.evidence).toMatch(
            /made without a session .*PATCH 200.*PUT 200.*DELETE 204.*cleanup: the record is deleted/,
          );
          if (framework === 'express') {
            // Made in the session (POST needs it), changed without one, and left for the owner to remove.
            const products = result.findings.find(
              (f) => f.rule_id === 'web.auth.unauth-write' && f.location.endsWith('/api/products'),
            )!;
            expect(products.evidence).toMatch(
              /made in the scan’s session \(POST 201.*without a session: PATCH 200 .*PUT 200 .*cleanup: the record stays at \/api\/products\/\d+: remove vigil-marker-[0-9a-f]{12} by hand/,
            );
          }
          const stored = result.findings.filter((f) => f.rule_id === 'web.xss.stored');
          expect(stored.every((f) => /rendered unescaped as an element.* at \//.test(f.evidence))).toBe(true);
          // The home page shows the entries to anyone: the scan says so.
          expect(stored.every((f) => f.evidence.includes('visitors without a session see it too (/)'))).toBe(
            true,
          );
          const mass = result.findings.find((f) => f.rule_id === 'web.auth.mass-assignment')!;
          expect(mass.evidence).toMatch(/role: "admin" in the answer \(the control account got "customer"\)/);
          expect(byMethod(app.seen).PATCH).toBeGreaterThan(0);
        }
      });
    });
  }
}

describe.each(['express', 'hono'] as const)('write checks without the owner’s consent: %s', (framework) => {
  let app: RunningWriteApp;
  let result: ScanResult;
  beforeAll(async () => {
    app = await startWriteApp(framework, 'open');
    result = await runScan('webapp', { target: app.target, mode: 'local', login: app.login, browser: null });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('sends not one write of theirs: no marker, no PUT, PATCH or DELETE, no JSON POST at the app', () => {
    expect(writesOfOurs(app.seen)).toEqual([]);
    const counts = byMethod(app.seen);
    expect(counts.PUT + counts.PATCH + counts.DELETE).toBe(0);
    expect(result.findings.filter((f) => writeRules.includes(f.rule_id))).toEqual([]);
    const skipped = result.categories?.skipped.find((s) => s.category === 'intrusive');
    expect(skipped?.checks).toEqual(
      expect.arrayContaining(['web.stored-xss', 'web.unauth-writes', 'web.mass-assignment']),
    );
    expect(skipped?.rules).toEqual(expect.arrayContaining(writeRules));
  });
});

describe.each(['open', 'guarded'] as const)(
  'mass assignment at a sign-up only a script sends (rendered in Chromium): %s',
  (variant) => {
    let app: RunningFixture & { seen: SeenRequest[] };
    let result: ScanResult;
    beforeAll(async () => {
      app = await startSpaSignup(variant);
      result = await runScan('webapp', { target: app.target, mode: 'local', allowIntrusive: true });
    }, 180_000);
    afterAll(async () => {
      await app?.close();
    });

    it('reads the privileged role from the token the JSON sign-up answers with', chromiumNeeded, () => {
      const m = measure(
        result.findings.filter((f) => writeRules.includes(f.rule_id)),
        app.planted,
        app.target,
      );
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      // The rendered crawl saw the JSON sign-up; the check sent its two marker accounts as JSON.
      const ours = app.seen.filter((r) => r.path === '/api/register' && r.body.includes('vigil-marker-'));
      expect(ours).toHaveLength(2);
      expect(ours.every((r) => r.type.includes('json'))).toBe(true);
    });
  },
);
