// Web files, methods and server pages: backups and dumps, listings, status and metrics pages, actuators,
// WebDAV writes, TRACE, robots.txt entries, verbose errors, wildcard CORS and header-advertised paths,
// beside wapiti, nmap's http-* scripts and whatweb, on real Apache, lighttpd, nginx and node_exporter
// (plus a Spring actuator stand-in: Debian has no Spring Boot server), real Express apps from npm, and on
// sites that must stay silent (a hardened Apache, an nginx SPA answering 200 everywhere, Express in
// production) and the Node SPA fixture.
import { runScan } from '../../../agents/scanners/run-scan.ts';
import { startApacheBad, startApacheGood } from '../../../tests/fixtures/web/apt-apache.ts';
import { startLighttpd } from '../../../tests/fixtures/web/apt-lighttpd.ts';
import { startExpressApp } from '../../../tests/fixtures/web/express-apps.ts';
import { startNginxSpa, startNodeExporter } from '../../../tests/fixtures/web/apt-web-extras.ts';
import type { PlantedIssue, RunningFixture } from '../../../tests/fixtures/planted.ts';
import { startSpa } from '../../../tests/fixtures/spa/spa.ts';
import { springPort, startSpringActuator } from '../../../tests/fixtures/web/spring-actuator.ts';
import type { DetectionFixture } from '../types.ts';
import { nmapHttp, wapiti, whatweb } from '../web-files-tools.ts';

const fileRules =
  /^web\.(exposed\.|directory-listing|webdav\.|method\.|auth\.method-bypass|robots\.|error\.|cors\.wildcard|disclosure\.header-path)/;

const fixture = (name: string, start: () => Promise<RunningFixture>): DetectionFixture => ({
  name,
  classOf: (issue: PlantedIssue) => (fileRules.test(issue.rule_id) ? 'web-files' : 'web-other'),
  start,
  scan: (f) => runScan('webapp', { target: f.target, mode: 'local', allowIntrusive: true }),
  tools: [wapiti, nmapHttp, whatweb],
});

export const fixtures: DetectionFixture[] = [
  fixture(
    'Apache 2.4 + PHP-FPM: status, info, WebDAV, TRACE, autoindex, leftovers, PHP errors',
    startApacheBad,
  ),
  fixture('lighttpd 1.4: mod_status, mod_webdav, robots-only listing, leftovers, cgitb', startLighttpd),
  fixture('node_exporter: open /metrics and pprof', startNodeExporter),
  fixture('Spring Boot actuators (Node stand-in)', () => startSpringActuator(springPort)),
  fixture('Express 4 outside production: serve-index (details), its own stack traces', () =>
    startExpressApp('development'),
  ),
  fixture('Express 4 with errorhandler and serve-index (icons)', () => startExpressApp('errorhandler')),
  fixture('Express 4 in production (silent)', () => startExpressApp('production')),
  fixture('Apache 2.4 hardened (silent)', startApacheGood),
  fixture('nginx SPA, try_files to index.html (silent)', startNginxSpa),
  fixture('Node SPA answering 200 everywhere (silent)', () => startSpa(18166)),
];
