// Runs inside a private network namespace (tests/scanners/run.sh): known-vulnerable components on real
// nginx and lighttpd serving real library releases from npm, old and current.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import { missingLibraries } from '../fixtures/web/component-libs.ts';
import { startCurrentLibrariesLighttpd, startOldLibrariesNginx } from '../fixtures/web/components.ts';
import { debian } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const needs = requires(
  ...missingLibraries().map((spec) => ({
    requirement: `npm:${spec}`,
    detail: `not in the cache (tests/scanners/run.sh packs it: npx tsx tests/fixtures/web/component-libs.ts)`,
  })),
  debian('nginx'),
  debian('lighttpd'),
);

describe('known-vulnerable components on real servers', needs, () => {
  let old: RunningFixture;
  let current: RunningFixture;
  beforeAll(async () => {
    [old, current] = await Promise.all([startOldLibrariesNginx(), startCurrentLibrariesLighttpd()]);
  });
  afterAll(async () => {
    await Promise.all([old?.close(), current?.close()]);
  });

  it('finds every old library however it is loaded, once per library and version, and names the server', async () => {
    const result = await runScan('webapp', { target: old.target, mode: 'local' });
    const m = measure(result.findings, old.planted, old.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    const evidence = (location: string) =>
      result.findings.find((f) => f.location === `${old.target}${location}`)?.evidence ?? '';
    expect(evidence('/static/js/jquery-1.12.4.min.js')).toMatch(/^jquery 1\.12\.4 .*CVE-2020-11022/);
    expect(evidence('/vendor/angular/angular.js')).toMatch(
      /^angularjs 1\.5\.8 \(version from the file content\)/,
    );
    expect(evidence('/ajax/libs/lodash.js/4.17.4/lodash.min.js')).toMatch(
      /^lodash 4\.17\.4 \(version from the url\)/,
    );
    expect(evidence('/js/vendor.bundle.js#bootstrap@3.3.7')).toMatch(/CVE-2019-8331/);
    expect(evidence('/js/deparam.js')).toMatch(/^jquery-deparam 0\.5\.2 \(version from the file hash\)/);
    const handlebars = result.findings.find((f) => f.location.endsWith('/js/handlebars.min.js'));
    expect(handlebars?.severity).toBe('high');
    expect(handlebars?.remediation).toMatch(/^Upgrade handlebars from 4\.0\.5 to 4\.7\.7 or later/);
    expect(result.findings.find((f) => f.rule_id === 'web.disclosure.server-version')?.evidence).toMatch(
      /^Server: nginx\/1\.\d+\.\d+, identified as Nginx 1\.\d+\.\d+/,
    );
  });

  it('stays silent on current releases and on a page that only mentions an old version', async () => {
    const result = await runScan('webapp', { target: current.target, mode: 'local' });
    const m = measure(result.findings, current.planted, current.target);
    expect(m.missed).toEqual([]);
    expect(m.unexpected).toEqual([]);
    expect(result.findings.find((f) => f.rule_id === 'web.disclosure.server-version')?.evidence).toMatch(
      /^Server: lighttpd\/1\.4\.\d+, identified as lighttpd 1\.4\.\d+/,
    );
  });
});
