// web.exposed.api-docs on real frameworks publishing their API documentation as their own docs set it up
// (Express + swagger-ui-express, Fastify + @fastify/swagger-ui, Koa + koa2-swagger-ui: the planted lists and
// places in tests/fixtures/web/api-docs-apps.ts were written from those docs before the scanner ran), and on
// two servers that must stay silent: Express in production without documentation, and an nginx
// single-page app answering 200 with its index everywhere. Measured on this class's rule only (the other
// checks have suites of their own); one finding per site, naming every place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { Finding } from '../../shared/findings.ts';
import { apiDocsApp, apiDocsPlaces, startApiDocsApp } from '../fixtures/web/api-docs-apps.ts';
import { aptBinaries } from '../fixtures/services/apt-servers.ts';
import { startNginxSpa } from '../fixtures/web/apt-web-extras.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import { startExpressApp } from '../fixtures/web/express-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import type { Unmet } from '../helpers/requirements.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const rule = 'web.exposed.api-docs';

const suites: {
  name: string;
  start: () => Promise<RunningFixture>;
  places: readonly string[];
  needs: (Unmet | null)[];
}[] = [
  {
    name: 'Express 4 with swagger-ui-express at /api-docs',
    start: () => startApiDocsApp('express'),
    places: apiDocsPlaces('express'),
    needs: [apiDocsApp('express')],
  },
  {
    name: 'Fastify 5 with @fastify/swagger and @fastify/swagger-ui at /documentation',
    start: () => startApiDocsApp('fastify'),
    places: apiDocsPlaces('fastify'),
    needs: [apiDocsApp('fastify')],
  },
  {
    name: 'Koa 2 with koa2-swagger-ui at /docs and the document at /openapi.json',
    start: () => startApiDocsApp('koa'),
    places: apiDocsPlaces('koa'),
    needs: [apiDocsApp('koa')],
  },
  {
    name: 'Express in production, no documentation (silent)',
    start: async () => ({ ...(await startExpressApp('production', 0)), planted: [] }),
    places: [],
    needs: [],
  },
  {
    name: 'nginx single-page app answering 200 everywhere (silent)',
    start: async () => ({ ...(await startNginxSpa()), planted: [] }),
    places: [],
    needs: [debianFile(aptBinaries.nginx)],
  },
];

for (const suite of suites) {
  describe(`API documentation: ${suite.name}`, requires(...suite.needs), () => {
    let fixture: RunningFixture;
    let findings: Finding[];
    beforeAll(async () => {
      fixture = await suite.start();
      const result = await runScan('webapp', { target: fixture.target, mode: 'local', browser: null });
      findings = result.findings.filter((f) => f.rule_id === rule);
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('finds what the app publishes and nothing else, as one finding naming every place', () => {
      const m = measure(findings, fixture.planted, fixture.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      const named = [...(findings[0]?.evidence ?? '').matchAll(/(\/[^\s;()]*) \(/g)].map((x) => x[1]);
      expect(named).toEqual([...suite.places]);
    });
  });
}
