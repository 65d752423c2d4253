// web.auth.no-login-rate-limit and web.auth.no-reset-rate-limit on real forms and JSON: an Express 4 app
// (express.urlencoded; a login answered 401 on a wrong password, a forgot-password form answered 200) and a
// Fastify 5 app (@fastify/formbody; a login answered 200 with a message and a hidden field, a recover form
// with a user name and a hidden step answered with a redirect), the Express shop's single-page app sending
// its sign-in and reset request as JSON (rendered through Chromium), each without a limiter, and the same apps
// with the limiter their ecosystems document (express-rate-limit, @fastify/rate-limit: 5 logins, 3 reset
// requests), which must stay silent; the planted lists in tests/fixtures/web/api-docs-apps.ts were written
// from that configuration before the scanner ran. The reset check is intrusive, so the scans allow intrusive
// checks. Measured per rule; the scan tries a handful of requests for a made-up account per form, never more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { LOGIN_ATTEMPTS } from '../../agents/scanners/webapp/login-rate-limit.ts';
import type { Finding } from '../../shared/findings.ts';
import type { ApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import { apiDocsApp, expressOwnerLogin, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { chromium } from '../fixtures/debian-packages.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const rules = {
  'web.auth.no-login-rate-limit': `${LOGIN_ATTEMPTS} failed logins in a row for a made-up account`,
  'web.auth.no-reset-rate-limit': `${LOGIN_ATTEMPTS} password-reset requests in a row for a made-up account`,
} as const;

interface Suite {
  name: string;
  app: ApiDocsApp;
  limited: boolean;
  rendered: boolean;
  /** Logged in with the app's own login form, the one the failed logins then go to: what is planted there. */
  loggedIn?: { rule_id: string; location: string }[];
}

/** The Express shop also has a single-page app sending JSON: rendered through Chromium to find it. */
const suites: Suite[] = [
  { name: 'Express forms and JSON, no limiter', app: 'expressLogin', limited: false, rendered: true },
  { name: 'Fastify forms, no limiter', app: 'fastifyLogin', limited: false, rendered: false },
  {
    name: 'Express forms and JSON with express-rate-limit (silent)',
    app: 'expressLogin',
    limited: true,
    rendered: true,
  },
  {
    name: 'Fastify forms with @fastify/rate-limit (silent)',
    app: 'fastifyLogin',
    limited: true,
    rendered: false,
  },
  // The form the scan signs in with is tried too, after every other check: the account app has no limit
  // on it (and no reset form); the limited shop's limit answers 429 from the fifth login, its own included.
  {
    name: 'Express account, logged in through its own login form, no limiter',
    app: 'expressAccount',
    limited: false,
    rendered: false,
    loggedIn: [{ rule_id: 'web.auth.no-login-rate-limit', location: '/login' }],
  },
  {
    name: 'Express forms with express-rate-limit, logged in through its own login form (silent)',
    app: 'expressLogin',
    limited: true,
    rendered: false,
    loggedIn: [],
  },
];

for (const suite of suites) {
  const needs = suite.rendered
    ? requires(apiDocsApp(suite.app), chromium())
    : requires(apiDocsApp(suite.app));
  describe(`login and reset rate limits: ${suite.name}`, needs, () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    let loginStatus: string | undefined;
    beforeAll(async () => {
      fixture = await startApiDocsApp(
        suite.app,
        suite.limited ? { args: ['limited'] } : suite.app === 'expressAccount' ? { args: ['plain'] } : {},
      );
      const result = await runScan('webapp', {
        target: fixture.target,
        mode: 'local',
        ...(suite.rendered ? {} : { browser: null }),
        ...(suite.loggedIn
          ? {
              login: expressOwnerLogin(
                fixture.target,
                suite.app === 'expressAccount' ? 'Signed in as' : undefined,
              ),
            }
          : {}),
        allowIntrusive: true,
      });
      findings = result.findings;
      loginStatus = result.crawl?.login?.status;
    }, 180_000);
    afterAll(async () => {
      await fixture?.close();
    });

    for (const [rule, evidence] of Object.entries(rules)) {
      it(`reports each form without a limit under ${rule}, and only those`, () => {
        if (suite.loggedIn) {
          expect(loginStatus).toBe('logged-in');
        }
        const found = findings.filter((f) => f.rule_id === rule);
        const m = measure(
          found,
          (suite.loggedIn ?? fixture.planted).filter((p) => p.rule_id === rule),
          fixture.target,
        );
        expect(m.missed).toEqual([]);
        expect(m.unexpected).toEqual([]);
        for (const finding of found) {
          expect(finding.evidence).toContain(evidence);
        }
      });
    }
  });
}
