// web.csrf.missing-token on real apps, logged in through their login forms: an Express 4 app (express-session)
// and a Fastify 5 app (@fastify/session), each with account forms that carry no token while the session
// cookie has no SameSite (the Express one also rendered and logged in through Chromium); silent on the same
// apps with the protection their ecosystems document (csrf-sync, @fastify/csrf-protection), with a
// SameSite=Strict or Lax session cookie, and on a logged-out scan (its forms act for nobody). The planted
// lists in tests/fixtures/web/api-docs-apps.ts were written from the apps' configuration before the scanner
// ran. The Express app's account page also posts JSON that its parser takes as text/plain: with intrusive
// checks allowed, the rendered scans send it as another site's page could (web.csrf.json-simple-request),
// found without a token and silent with csrf-sync. A second framework for that proof: the Flask tutorial's
// app (tests/fixtures/web/flask-session.ts), whose preferences API reads any body as JSON
// (get_json(force=True)), found; silent when it reads only application/json (Flask's default). Measured on
// these two rules only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import type { TargetLogin } from '../../shared/target-login.ts';
import { chromium, debian } from '../fixtures/debian-packages.ts';
import { apiDocsApp, expressOwnerLogin, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import { startFlaskSession } from '../fixtures/web/flask-session.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const rule = 'web.csrf.missing-token';
/** The intrusive proof on JSON endpoints (write/json-csrf.ts): measured where the scan may run it. */
const jsonRule = 'web.csrf.json-simple-request';

type App = 'expressAccount' | 'fastifyAccount' | 'flask';

const logins: Record<App, (target: string) => TargetLogin> = {
  expressAccount: (target) => expressOwnerLogin(target, 'Signed in as'),
  fastifyAccount: (target) => ({
    kind: 'form',
    login_url: `${target}/signin`,
    username_field: 'username',
    password_field: 'passwd',
    username: 'owner',
    password: 'correct horse battery staple',
    logged_in_marker: 'Signed in as',
  }),
  flask: (target) => ({
    kind: 'form',
    login_url: `${target}/auth/login`,
    username_field: 'username',
    password_field: 'password',
    username: 'owner',
    password: 'correct horse battery staple',
    logged_in_marker: 'Log Out',
  }),
};

const start = (app: App, mode: string): Promise<RunningFixture> =>
  app === 'flask'
    ? startFlaskSession(mode === 'plain' ? 'tutorial' : 'configured')
    : startApiDocsApp(app, { args: [mode] });
const installed = (app: App) => (app === 'flask' ? debian('python3-flask') : apiDocsApp(app));

interface Suite {
  name: string;
  app: App;
  mode: string;
  loggedIn: boolean;
  /** Rendered, and logged in, through Chromium instead of plain HTTP. */
  rendered?: boolean;
  /** Intrusive checks allowed: the JSON endpoints get the forged simple request as well. */
  intrusive?: boolean;
}

const suites: Suite[] = [
  {
    name: 'Express, express-session, no token, logged in through Chromium, intrusive checks allowed',
    app: 'expressAccount',
    mode: 'plain',
    loggedIn: true,
    rendered: true,
    intrusive: true,
  },
  {
    name: 'Express with csrf-sync, logged in through Chromium, intrusive checks allowed (silent)',
    app: 'expressAccount',
    mode: 'token',
    loggedIn: true,
    rendered: true,
    intrusive: true,
  },
  { name: 'Express, express-session, no token', app: 'expressAccount', mode: 'plain', loggedIn: true },
  { name: 'Fastify, @fastify/session, no token', app: 'fastifyAccount', mode: 'plain', loggedIn: true },
  { name: 'Express with csrf-sync (silent)', app: 'expressAccount', mode: 'token', loggedIn: true },
  {
    name: 'Express, SameSite=Strict session (silent)',
    app: 'expressAccount',
    mode: 'strict',
    loggedIn: true,
  },
  {
    name: 'Fastify with @fastify/csrf-protection (silent)',
    app: 'fastifyAccount',
    mode: 'token',
    loggedIn: true,
  },
  { name: 'Fastify, SameSite=Lax session (silent)', app: 'fastifyAccount', mode: 'lax', loggedIn: true },
  { name: 'Express, no token, logged out (silent)', app: 'expressAccount', mode: 'plain', loggedIn: false },
  {
    name: 'Flask, get_json(force=True), logged in through Chromium, intrusive checks allowed',
    app: 'flask',
    mode: 'plain',
    loggedIn: true,
    rendered: true,
    intrusive: true,
  },
  {
    name: 'Flask, get_json(), logged in through Chromium, intrusive checks allowed (silent)',
    app: 'flask',
    mode: 'strict',
    loggedIn: true,
    rendered: true,
    intrusive: true,
  },
];

for (const suite of suites) {
  const needs = suite.rendered ? requires(installed(suite.app), chromium()) : requires(installed(suite.app));
  describe(`CSRF: ${suite.name}`, needs, () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    let loginStatus: string | undefined;
    const measured: string[] = suite.intrusive && suite.rendered ? [rule, jsonRule] : [rule];
    beforeAll(async () => {
      fixture = await start(suite.app, suite.mode);
      const result = await runScan('webapp', {
        target: fixture.target,
        mode: 'local',
        ...(suite.rendered ? {} : { browser: null }),
        ...(suite.loggedIn ? { login: logins[suite.app](fixture.target) } : {}),
        ...(suite.intrusive ? { allowIntrusive: true } : {}),
      });
      loginStatus = result.crawl?.login?.status;
      findings = result.findings.filter((f) => measured.includes(f.rule_id));
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('reports the forms a forged request could send in the session, and only those', () => {
      if (suite.loggedIn) {
        expect(loginStatus).toBe('logged-in');
      }
      const planted = suite.loggedIn ? fixture.planted.filter((p) => measured.includes(p.rule_id)) : [];
      const m = measure(findings, planted, fixture.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      for (const finding of findings) {
        expect(finding.evidence).toMatch(
          finding.rule_id === rule
            ? /carries no anti-forgery token/
            : /Content-Type text\/plain.*without the cookies: HTTP 401/,
        );
        expect(finding.evidence).toMatch(/(connect\.sid|sessionId|session) \(no SameSite\)/);
      }
    });
  });
}
