// The web scanner's file, method and server-page checks against real servers from Debian configured
// badly in different ways (Apache with PHP-FPM, lighttpd, node_exporter), a stand-in for Spring Boot's
// actuators, and servers that must stay silent (a hardened Apache, an nginx single-page app answering
// 200 everywhere). Each scan is measured against the fixture's planted list: recall 100 %, nothing else.
import { existsSync, readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { aptBinaries } from '../fixtures/apt-servers.ts';
import { apacheBinary, startApacheBad, startApacheGood } from '../fixtures/apt-apache.ts';
import { lighttpdBinary, lighttpdWebdavModule, startLighttpd } from '../fixtures/apt-lighttpd.ts';
import { nodeExporterBinary, startNginxSpa, startNodeExporter } from '../fixtures/apt-web-extras.ts';
import { phpFpmBinary } from '../fixtures/php-fpm.ts';
import { startExpressApp } from '../fixtures/express-apps.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { relativeLocation } from '../fixtures/planted.ts';
import { startSpringActuator } from '../fixtures/spring-actuator.ts';
import { measure } from './measure.ts';

/** Apache and lighttpd drop to www-data: that needs real root, not root mapped in a user namespace. */
const realRoot = () =>
  process.getuid?.() === 0 && /^\s*0\s+0\s+4294967295\s*$/m.test(readFileSync('/proc/self/uid_map', 'utf8'));

function missing(paths: (string | null)[], needsRoot: boolean): string | null {
  const absent = paths.filter((p) => p === null || !existsSync(p));
  if (absent.length > 0) {
    return `not installed: ${absent.map((p) => p ?? 'php-fpm').join(', ')} (tests/scanners/run.sh installs them as root)`;
  }
  return needsRoot && !realRoot() ? 'needs real root (the servers switch to www-data)' : null;
}

const suites: { name: string; start: () => Promise<RunningFixture>; skip: string | null }[] = [
  {
    name: 'Apache with mod_status, mod_info, WebDAV, TRACE, autoindex, leftovers and PHP errors',
    start: startApacheBad,
    skip: missing([apacheBinary, phpFpmBinary()], true),
  },
  {
    name: 'lighttpd with mod_status, mod_webdav, a robots-only listing, leftovers and a cgitb trace',
    start: startLighttpd,
    skip: missing([lighttpdBinary, lighttpdWebdavModule, phpFpmBinary()], true),
  },
  {
    name: 'node_exporter (open metrics and pprof)',
    start: startNodeExporter,
    skip: missing([nodeExporterBinary], false),
  },
  { name: 'Spring Boot actuator stand-in (Node)', start: () => startSpringActuator(0), skip: null },
  {
    name: 'Express in development with serve-index (details view) and its own error pages',
    start: () => startExpressApp('development', 0),
    skip: null,
  },
  {
    name: 'Express with the errorhandler middleware and serve-index (icons)',
    start: () => startExpressApp('errorhandler', 0),
    skip: null,
  },
  {
    name: 'Express in production, no listing (silent)',
    start: () => startExpressApp('production', 0),
    skip: null,
  },
  {
    name: 'hardened Apache (silent)',
    start: startApacheGood,
    skip: missing([apacheBinary, phpFpmBinary()], true),
  },
  {
    name: 'nginx single-page app answering 200 everywhere (silent)',
    start: startNginxSpa,
    skip: missing([aptBinaries.nginx], false),
  },
];

for (const suite of suites) {
  describe.skipIf(suite.skip !== null)(
    `web file checks: ${suite.name}${suite.skip ? ` (skipped: ${suite.skip})` : ''}`,
    () => {
      let fixture: RunningFixture;
      beforeAll(async () => {
        fixture = await suite.start();
      });
      afterAll(async () => {
        await fixture?.close();
      });

      it('finds every planted issue, and nothing else, at the same locations on a second scan', async () => {
        const first = await runScan('webapp', { target: fixture.target, mode: 'local' });
        const m = measure(first.findings, fixture.planted, fixture.target);
        expect(m.missed).toEqual([]);
        expect(m.unexpected).toEqual([]);
        expect(first.partial).toBe(false);
        const second = await runScan('webapp', { target: fixture.target, mode: 'local' });
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
    },
  );
}
