// web.auth.no-login-rate-limit on real login forms: an Express 4 form (express.urlencoded, 401 on a wrong
// password) and a Fastify 5 form (@fastify/formbody, 200 with a message, a hidden field), each without a
// limiter, and the same two apps with the limiter their ecosystems document (express-rate-limit,
// @fastify/rate-limit: 5 attempts), which must stay silent; the planted lists in
// tests/fixtures/web/api-docs-apps.ts were written from that configuration before the scanner ran. Measured on
// this rule only; the scan tries a handful of logins for a made-up account, never more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { LOGIN_ATTEMPTS } from '../../agents/scanners/webapp/login-rate-limit.ts';
import type { Finding } from '../../shared/findings.ts';
import type { ApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import { apiDocsApp, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const rule = 'web.auth.no-login-rate-limit';

const suites: { name: string; app: ApiDocsApp; limited: boolean }[] = [
  { name: 'Express login form, no limiter', app: 'expressLogin', limited: false },
  { name: 'Fastify login form, no limiter', app: 'fastifyLogin', limited: false },
  { name: 'Express login form with express-rate-limit (silent)', app: 'expressLogin', limited: true },
  { name: 'Fastify login form with @fastify/rate-limit (silent)', app: 'fastifyLogin', limited: true },
];

for (const suite of suites) {
  describe(`login rate limit: ${suite.name}`, requires(apiDocsApp(suite.app)), () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    beforeAll(async () => {
      fixture = await startApiDocsApp(suite.app, suite.limited ? { args: ['limited'] } : {});
      const result = await runScan('webapp', { target: fixture.target, mode: 'local', browser: null });
      findings = result.findings.filter((f) => f.rule_id === rule);
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('reports a login form without a limit, and only that', () => {
      const m = measure(findings, fixture.planted, fixture.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      for (const finding of findings) {
        expect(finding.evidence).toContain(`${LOGIN_ATTEMPTS} failed logins in a row for a made-up account`);
      }
    });
  });
}
