// web.auth.session-cookie-forgeable and web.auth.cookie-weak-secret on real apps set up as their own docs
// show, none written for this check: express-session's README login example (secret 'keyboard cat'),
// koa-session's README view counter (app.keys ['some secret hurr']) and the Flask tutorial's factory
// (SECRET_KEY 'dev'), each logged in or visited as its users would; silent on the same apps with a random
// secret, as their docs ask for production. The planted lists (tests/fixtures/web/api-docs-apps.ts,
// tests/fixtures/web/flask-session.ts) were written from the apps' configuration before the scanner ran.
// Measured on these two rules only: the check is passive, it sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import type { TargetLogin } from '../../shared/target-login.ts';
import { debian } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { apiDocsApp, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import { startFlaskSession } from '../fixtures/web/flask-session.ts';
import type { Unmet } from '../helpers/requirements.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const rules = new Set(['web.auth.session-cookie-forgeable', 'web.auth.cookie-weak-secret']);
const password = 'correct horse battery staple';

interface Suite {
  name: string;
  needs: Unmet | null;
  start: () => Promise<RunningFixture>;
  login?: (target: string) => TargetLogin;
  evidence?: RegExp;
}

const expressLogin = (target: string): TargetLogin => ({
  kind: 'form',
  login_url: `${target}/`,
  username_field: 'user',
  password_field: 'pass',
  username: 'owner',
  password,
  logged_in_marker: 'Logout',
});
const flaskLogin = (target: string): TargetLogin => ({
  kind: 'form',
  login_url: `${target}/auth/login`,
  username_field: 'username',
  password_field: 'password',
  username: 'owner',
  password,
  logged_in_marker: 'Log Out',
});

const suites: Suite[] = [
  {
    name: "express-session's README ('keyboard cat'), logged in",
    needs: apiDocsApp('expressSession'),
    start: () => startApiDocsApp('expressSession', { args: ['readme'] }),
    login: expressLogin,
    evidence: /the cookie connect\.sid .* cookie-signature .* under the key "keyboard cat"/,
  },
  {
    name: "koa-session's README ('some secret hurr'), visited",
    needs: apiDocsApp('koaSession'),
    start: () => startApiDocsApp('koaSession', { args: ['readme'] }),
    evidence:
      /the cookie koa\.sess .* Keygrip .* under the key "some secret hurr".*anyone can write a session/,
  },
  {
    name: "the Flask tutorial's factory (SECRET_KEY 'dev'), logged in",
    needs: debian('python3-flask'),
    start: () => startFlaskSession('tutorial'),
    login: flaskLogin,
    evidence: /the cookie session .* itsdangerous .* under the key "dev"/,
  },
  {
    name: 'express-session with a random secret (silent)',
    needs: apiDocsApp('expressSession'),
    start: () => startApiDocsApp('expressSession', { args: ['own'] }),
    login: expressLogin,
  },
  {
    name: 'koa-session with random keys (silent)',
    needs: apiDocsApp('koaSession'),
    start: () => startApiDocsApp('koaSession', { args: ['own'] }),
  },
  {
    name: 'Flask with a random SECRET_KEY (silent)',
    needs: debian('python3-flask'),
    start: () => startFlaskSession('configured'),
    login: flaskLogin,
  },
];

for (const suite of suites) {
  describe(`signed cookies: ${suite.name}`, requires(suite.needs), () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    let loginStatus: string | undefined;
    beforeAll(async () => {
      fixture = await suite.start();
      const result = await runScan('webapp', {
        target: fixture.target,
        mode: 'local',
        browser: null,
        ...(suite.login ? { login: suite.login(fixture.target) } : {}),
      });
      loginStatus = result.crawl?.login?.status;
      findings = result.findings.filter((f) => rules.has(f.rule_id));
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('reports a cookie signed under a well-known key, once for the app, and only that', () => {
      if (suite.login) {
        expect(loginStatus).toBe('logged-in');
      }
      const m = measure(
        findings,
        fixture.planted.filter((p) => rules.has(p.rule_id)),
        fixture.target,
      );
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      if (suite.evidence) {
        expect(findings[0]!.evidence).toMatch(suite.evidence);
      }
    });
  });
}
