// Every parameter that carries a URL or a path, by name or by value, is tried for open
// redirects, on real servers whose redirect parameters a fixed list of names misses (Apache's mod_rewrite
// with `link=docs/intro.html`, PHP with `successUrl=account`), and a server whose redirect stays on the
// site (silent). Only the classes these parameters are tried for are judged: the redirect and injection
// rules, planted list exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { debian, debianFile } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import {
  apacheBinary,
  nginxBinary,
  startApacheRedirects,
  startPhpRedirects,
} from '../fixtures/web/redirect-servers.ts';
import { realRoot, requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const judged = /^web\.(open-redirect|sqli\.|path-traversal|ssti|command-injection|xss\.reflected)/;

const suites = [
  {
    name: 'Apache mod_rewrite sending link= below / (open)',
    start: () => startApacheRedirects(false),
    needs: [debianFile(apacheBinary), realRoot()],
  },
  {
    name: 'PHP on nginx accepting any successUrl= without a scheme (open)',
    start: startPhpRedirects,
    needs: [debianFile(nginxBinary), debian('php-fpm'), realRoot()],
  },
  {
    name: 'Apache mod_rewrite keeping link= below /pages/ (silent)',
    start: () => startApacheRedirects(true),
    needs: [debianFile(apacheBinary), realRoot()],
  },
];

for (const suite of suites) {
  describe(`URL-carrying parameters: ${suite.name}`, requires(...suite.needs), () => {
    let fixture: RunningFixture;
    beforeAll(async () => {
      fixture = await suite.start();
    });
    afterAll(async () => {
      await fixture?.close();
    });

    it('finds the planted open redirects and no other redirect or injection', async () => {
      const result = await runScan('webapp', { target: fixture.target, mode: 'local', browser: null });
      const m = measure(
        result.findings.filter((f) => judged.test(f.rule_id)),
        fixture.planted,
        fixture.target,
      );
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      for (const finding of result.findings.filter((f) => f.rule_id === 'web.open-redirect')) {
        expect(finding.evidence).toMatch(/answered 30\d Location: .*vigil-redirect-check\.invalid/);
      }
    });
  });
}
