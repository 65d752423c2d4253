// web.auth.jwt-unsigned and web.auth.jwt-weak-secret on real apps, logged in through their login forms: an
// Express 4 app that sets a jsonwebtoken token signed HS256 with 'secret' in a cookie, and a Koa 2 app whose
// login API answers a jose UnsecuredJWT ("alg": "none") in JSON; silent on the same Express app signing with
// 64 random bytes or RS256, and on the Koa app signing HS256 with a random key. The planted lists in
// tests/fixtures/web/api-docs-apps.ts were written from the apps' configuration before the scanner ran.
// Measured on these two rules only: the check is passive, it sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import type { TargetLogin } from '../../shared/target-login.ts';
import { apiDocsApp, expressOwnerLogin, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const rules = new Set(['web.auth.jwt-unsigned', 'web.auth.jwt-weak-secret']);

const logins: Record<'expressJwt' | 'koaJwt', (target: string) => TargetLogin> = {
  expressJwt: (target) => expressOwnerLogin(target, 'Signed in as'),
  koaJwt: (target) => ({
    kind: 'form',
    login_url: `${target}/signin`,
    username_field: 'user',
    password_field: 'pass',
    username: 'owner',
    password: 'correct horse battery staple',
    logged_in_marker: undefined,
  }),
};

const suites: { name: string; app: 'expressJwt' | 'koaJwt'; mode: string; evidence?: RegExp }[] = [
  {
    name: "Express, jsonwebtoken HS256 with 'secret'",
    app: 'expressJwt',
    mode: 'weak',
    evidence: /the cookie access_token holds a JSON Web Token signed with HS256 under the key "secret"/,
  },
  {
    name: 'Koa, jose UnsecuredJWT',
    app: 'koaJwt',
    mode: 'none',
    evidence:
      /the (?:cookie token|JSON answer) holds a JSON Web Token with "alg": "none" and no signature \(claims: sub, scope/,
  },
  { name: 'Express, HS256 with 64 random bytes (silent)', app: 'expressJwt', mode: 'strong' },
  { name: 'Express, RS256 (silent)', app: 'expressJwt', mode: 'rs256' },
  { name: 'Koa, jose HS256 with a random key (silent)', app: 'koaJwt', mode: 'strong' },
];

for (const suite of suites) {
  describe(`weak tokens: ${suite.name}`, requires(apiDocsApp(suite.app)), () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    let loginStatus: string | undefined;
    beforeAll(async () => {
      fixture = await startApiDocsApp(suite.app, { args: [suite.mode] });
      const result = await runScan('webapp', {
        target: fixture.target,
        mode: 'local',
        browser: null,
        login: logins[suite.app](fixture.target),
      });
      loginStatus = result.crawl?.login?.status;
      findings = result.findings.filter((f) => rules.has(f.rule_id));
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('reports the tokens the app issues unsigned or under a well-known key, and only those', () => {
      expect(loginStatus).toBe('logged-in');
      const m = measure(findings, fixture.planted, fixture.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      if (suite.evidence) {
        expect(findings[0]!.evidence).toMatch(suite.evidence);
      }
    });
  });
}
