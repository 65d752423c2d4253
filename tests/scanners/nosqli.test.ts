// web.nosqli on real query engines: Express with the official MongoDB driver over CongoDB (a search in the
// query string, and a JSON login the page's script posts, found by the rendered crawl through Chromium),
// and a plain node:http server over PouchDB's Mango queries (a directory in the query string, a form-encoded
// sign-in, found by the HTML crawl), each beside a silent twin that casts every input to a string. The
// planted lists (tests/fixtures/web/nosql-apps.ts) were written from the apps' code before the scanner ran.
// The PouchDB app is scanned logged in through its sign-in form as well: the same findings (the login is
// probed without the session).
// Measured on this rule only; the scans are whole web scans, side by side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import { findingSchema } from '../../shared/findings.ts';
import { chromium } from '../fixtures/debian-packages.ts';
import type { NosqlFixture, NosqlStack, NosqlVariant } from '../fixtures/web/nosql-apps.ts';
import { nosqlStackMissing, pouchMember, startNosqlApp } from '../fixtures/web/nosql-apps.ts';
import { requires } from '../helpers/requirements.ts';
import type { TargetLogin } from '../../shared/target-login.ts';
import { measure } from './measure.ts';

const rule = 'web.nosqli';

interface Suite {
  stack: NosqlStack;
  variant: NosqlVariant;
  /** Rendered through Chromium (the JSON login exists only in the page's script). */
  rendered: boolean;
  /** Logged in through the app's sign-in form: the session must not cost the scan its login's findings. */
  loggedIn?: boolean;
}

const suites: Suite[] = [
  { stack: 'mongo', variant: 'vulnerable', rendered: true },
  { stack: 'mongo', variant: 'twin', rendered: true },
  { stack: 'mongo', variant: 'sanitized', rendered: true },
  { stack: 'pouch', variant: 'vulnerable', rendered: false },
  { stack: 'pouch', variant: 'twin', rendered: false },
  { stack: 'pouch', variant: 'vulnerable', rendered: false, loggedIn: true },
];

const pouchLogin = (target: string): TargetLogin => ({
  kind: 'form',
  login_url: `${target}/signin`,
  username_field: 'name',
  password_field: 'password',
  username: pouchMember.name,
  password: pouchMember.password,
  logged_in_marker: 'Signed in as',
});

for (const suite of suites) {
  const needs = suite.rendered
    ? requires(nosqlStackMissing(suite.stack), chromium())
    : requires(nosqlStackMissing(suite.stack));
  describe(
    `NoSQL injection: ${suite.stack} ${suite.variant}${suite.loggedIn ? ', logged in' : ''}`,
    needs,
    () => {
      let fixture: NosqlFixture;
      let findings: Finding[];
      let loginStatus: string | undefined;
      beforeAll(async () => {
        fixture = await startNosqlApp(suite.stack, suite.variant);
        const result = await runScan('webapp', {
          target: fixture.target,
          mode: 'local',
          ...(suite.rendered ? {} : { browser: null }),
          ...(suite.loggedIn ? { login: pouchLogin(fixture.target) } : {}),
        });
        loginStatus = result.crawl?.login?.status;
        if (loginStatus && loginStatus !== 'logged-in') {
          console.log(result.crawl?.login);
        }
        findings = result.findings.filter((f) => f.rule_id === rule);
      }, 180_000);
      afterAll(async () => {
        await fixture?.close();
      });

      if (suite.variant === 'vulnerable') {
        it('reports every parameter the app hands to its database as is, and nothing else', () => {
          if (suite.loggedIn) {
            expect(loginStatus).toBe('logged-in');
          }
          const m = measure(findings, fixture.planted, fixture.target);
          expect(m.missed).toEqual([]);
          expect(m.unexpected).toEqual([]);
          expect(fixture.planted.length).toBeGreaterThan(0);
        });

        it('says where, which shapes were sent and what differed, bounded', () => {
          for (const finding of findings) {
            expect(() => findingSchema.parse(finding)).not.toThrow();
            expect(finding.cwe).toBe('CWE-943');
            expect(finding.evidence).toMatch(/\$ne/);
            expect(finding.evidence).toMatch(/answered HTTP \d{3}( to \S+)?, \d+ bytes/);
            expect(finding.evidence).toMatch(/answered like the literal/);
            expect(finding.evidence.length).toBeLessThan(1200);
          }
          const login = findings.filter((f) => /login|signin/.test(f.location));
          expect(login.length).toBe(2);
          // The login's evidence shows both fields carrying the operator (the bypass).
          for (const finding of login) {
            expect(finding.evidence).toMatch(suite.stack === 'mongo' ? /"user": \{"\$ne"/ : /name\[\$ne\]=/);
            expect(finding.evidence).toMatch(/HTTP 401/);
          }
        });
      } else {
        it('stays silent when every input is cast to a string, or operators are stripped', () => {
          expect(findings).toEqual([]);
        });
      }

      it('sent operators to the search and to the login (the twins were probed as well)', () => {
        // (The Express login page's own form, which has no method, is probed as GET /login as well.)
        expect([...fixture.operatorsAt]).toEqual(
          expect.arrayContaining(
            suite.stack === 'mongo' ? ['GET /products', 'POST /api/login'] : ['GET /members', 'POST /signin'],
          ),
        );
      });

      it('prints its findings', () => {
        for (const finding of findings) {
          console.log(`${finding.location}\n  ${finding.evidence}`);
        }
        expect(findings.length).toBe(fixture.planted.length);
      });
    },
  );
}
