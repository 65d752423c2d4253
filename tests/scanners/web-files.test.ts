// The web scanner's file, method and server-page checks against real servers from Debian configured
// badly in different ways (Apache with PHP-FPM, lighttpd, node_exporter), a stand-in for Spring Boot's
// actuators, and servers that must stay silent (a hardened Apache, an nginx single-page app answering
// 200 everywhere). Each scan is measured against the fixture's planted list: recall 100 %, nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { aptBinaries } from '../fixtures/services/apt-servers.ts';
import { debian, debianFile } from '../fixtures/debian-packages.ts';
import { apacheBinary, startApacheBad, startApacheGood } from '../fixtures/web/apt-apache.ts';
import { lighttpdBinary, lighttpdWebdavModule, startLighttpd } from '../fixtures/web/apt-lighttpd.ts';
import { nodeExporterBinary, startNginxSpa, startNodeExporter } from '../fixtures/web/apt-web-extras.ts';
import { startExpressApp } from '../fixtures/web/express-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { relativeLocation } from '../fixtures/planted.ts';
import { startSpringActuator } from '../fixtures/web/spring-actuator.ts';
import type { Unmet } from '../helpers/requirements.ts';
import { realRoot, requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

/** Apache and lighttpd drop to www-data: that needs real root, not root mapped in a user namespace. */
const asWwwData = (...needs: (Unmet | null)[]) => [...needs, realRoot()];

const suites: { name: string; start: () => Promise<RunningFixture>; needs: (Unmet | null)[] }[] = [
  {
    name: 'Apache with mod_status, mod_info, WebDAV, TRACE, autoindex, leftovers and PHP errors',
    start: startApacheBad,
    needs: asWwwData(debianFile(apacheBinary), debian('php-fpm')),
  },
  {
    name: 'lighttpd with mod_status, mod_webdav, a robots-only listing, leftovers and a cgitb trace',
    start: startLighttpd,
    needs: asWwwData(debianFile(lighttpdBinary), debianFile(lighttpdWebdavModule), debian('php-fpm')),
  },
  {
    name: 'node_exporter (open metrics and pprof)',
    start: startNodeExporter,
    needs: [debianFile(nodeExporterBinary)],
  },
  { name: 'Spring Boot actuator stand-in (Node)', start: () => startSpringActuator(0), needs: [] },
  {
    name: 'Express in development with serve-index (details view) and its own error pages',
    start: () => startExpressApp('development', 0),
    needs: [],
  },
  {
    name: 'Express with the errorhandler middleware and serve-index (icons)',
    start: () => startExpressApp('errorhandler', 0),
    needs: [],
  },
  {
    name: 'Express in production, no listing (silent)',
    start: () => startExpressApp('production', 0),
    needs: [],
  },
  {
    name: 'hardened Apache (silent)',
    start: startApacheGood,
    needs: asWwwData(debianFile(apacheBinary), debian('php-fpm')),
  },
  {
    name: 'nginx single-page app answering 200 everywhere (silent)',
    start: startNginxSpa,
    needs: [debianFile(aptBinaries.nginx)],
  },
];

for (const suite of suites) {
  describe(`web file checks: ${suite.name}`, requires(...suite.needs), () => {
    let fixture: RunningFixture;
    beforeAll(async () => {
      fixture = await suite.start();
    });
    afterAll(async () => {
      await fixture?.close();
    });

    it('finds every planted issue, and nothing else, at the same locations on a second scan', async () => {
      const first = await runScan('webapp', { target: fixture.target, mode: 'local', allowIntrusive: true });
      const m = measure(first.findings, fixture.planted, fixture.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      expect(first.partial).toBe(false);
      const second = await runScan('webapp', { target: fixture.target, mode: 'local', allowIntrusive: true });
      const keys = (r: typeof first) =>
        r.findings.map((f) => `${f.rule_id} ${relativeLocation(f.location, fixture.target)}`).sort();
      expect(keys(second)).toEqual(keys(first));
      // Write probes leave nothing behind, and say so.
      for (const finding of first.findings.filter((f) => f.rule_id === 'web.webdav.write')) {
        expect(finding.evidence).toMatch(/cleanup: DELETE removed all \d/);
        const listing = await fetch(finding.location, { method: 'PROPFIND', headers: { depth: '1' } });
        expect(await listing.text()).not.toContain('vigil-write-probe');
      }
    });
  });
}
