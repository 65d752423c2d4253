// Error handling probed on every method (web.error.verbose at the site's root): a malformed JSON body with
// POST, PATCH and DELETE to made-up paths (never PUT, which a WebDAV server would store). Real error
// handlers that print the body parser's stack:
// Express's finalhandler outside production and the errorhandler middleware (tests/fixtures/web/json-api-apps.ts);
// silent: the same API in production, Fastify 5 (its own JSON parser and error handler) and Koa 2 (both
// from tests/fixtures/web/api-docs-apps.ts). Measured on this check's finding only (the GET probes of the same
// rule file at other places and have suites of their own). No request reaches a route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import { apiDocsApp, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import { startJsonApiApp } from '../fixtures/web/json-api-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import type { Unmet } from '../helpers/requirements.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const suites: { name: string; start: () => Promise<RunningFixture>; needs: (Unmet | null)[] }[] = [
  {
    name: 'Express JSON API, not in production (finalhandler)',
    start: () => startJsonApiApp('development'),
    needs: [],
  },
  { name: 'Express JSON API with errorhandler', start: () => startJsonApiApp('errorhandler'), needs: [] },
  { name: 'Express JSON API in production (silent)', start: () => startJsonApiApp('production'), needs: [] },
  {
    name: 'Fastify 5 (silent)',
    start: async () => ({ ...(await startApiDocsApp('fastify')), planted: [] }),
    needs: [apiDocsApp('fastify')],
  },
  {
    name: 'Koa 2 (silent)',
    start: async () => ({ ...(await startApiDocsApp('koa')), planted: [] }),
    needs: [apiDocsApp('koa')],
  },
];

for (const suite of suites) {
  describe(`error handling on every method: ${suite.name}`, requires(...suite.needs), () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    beforeAll(async () => {
      fixture = await suite.start();
      const result = await runScan('webapp', { target: fixture.target, mode: 'local', browser: null });
      findings = result.findings.filter(
        (f) => f.rule_id === 'web.error.verbose' && f.location === `${fixture.target}/`,
      );
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('reports the error handler once, with every method that showed a trace', () => {
      const m = measure(findings, fixture.planted, fixture.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      if (fixture.planted.length > 0) {
        for (const method of ['POST', 'PATCH', 'DELETE']) {
          expect(findings[0]!.evidence).toMatch(new RegExp(`${method} /vigil-[0-9a-f]{8} \\(HTTP 400\\)`));
        }
        expect(findings[0]!.evidence).toMatch(/SyntaxError|JSON/);
      }
    });
  });
}
