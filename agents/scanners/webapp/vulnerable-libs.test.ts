import { describe, expect, it } from 'vitest';

import { findingSchema } from '../../../shared/findings.ts';
import { detectLibraries, libraryFindings } from './vulnerable-libs.ts';

const jquery1124 =
  '/*! jQuery v1.12.4 | (c) jQuery Foundation | jquery.org/license */\n!function(a,b){}(this);\n';
const bootstrap337 =
  '/*!\n * Bootstrap v3.3.7 (http://getbootstrap.com)\n * Copyright 2011-2016 Twitter, Inc.\n */\n';

describe('vulnerable library findings', () => {
  it('gives one finding with the CVEs, the worst severity and the fixing release', () => {
    const [finding, ...rest] = libraryFindings(
      'https://s.example/js/jquery-1.12.4.min.js',
      'https://s.example/js/jquery-1.12.4.min.js',
      jquery1124,
    );
    expect(rest).toEqual([]);
    expect(findingSchema.parse(finding)).toEqual(finding);
    expect(finding!.rule_id).toBe('web.vulnerable-library');
    expect(finding!.location).toBe('https://s.example/js/jquery-1.12.4.min.js');
    expect(finding!.evidence).toMatch(
      /^jquery 1\.12\.4 \(version from the file content\): 6 known vulnerabilities, worst medium: CVE-2020-1102[23], CVE-2020-1102[23] \(fixed in 3\.5\.0\)/,
    );
    expect(finding!.evidence).toContain('CVE-2020-11022');
    expect(finding!.severity).toBe('medium');
    expect(finding!.remediation).toMatch(/^Upgrade jquery from 1\.12\.4 to 3\.5\.0 or later/);
  });

  it('raises the CVSS with the worst advisory and says when no release fixes it', () => {
    const [lodash] = libraryFindings(
      '/x',
      'https://cdn.example/ajax/libs/lodash.js/4.17.4/lodash.min.js',
      '',
    );
    expect(lodash!.severity).toBe('high');
    expect(lodash!.evidence).toMatch(/CVE-2019-10744/);
    expect(lodash!.evidence).toContain('version from the url');
    const [angular] = libraryFindings(
      'https://s.example/js/app.js',
      'https://s.example/js/app.js',
      '/**\n * @license AngularJS v1.8.3\n */',
    );
    expect(angular!.remediation).toMatch(/^No release of angularjs fixes every known vulnerability/);
  });

  it('stays silent on current releases', () => {
    expect(
      libraryFindings(
        'https://s.example/',
        'https://s.example/js/jquery-3.7.1.min.js',
        '/*! jQuery v3.7.1 | (c) OpenJS Foundation */',
      ),
    ).toEqual([]);
    expect(
      libraryFindings(
        '/x',
        '/js/bootstrap.min.js',
        '/*!\n * Bootstrap v5.3.3 (https://getbootstrap.com/)\n */',
      ),
    ).toEqual([]);
    expect(
      libraryFindings('https://s.example/', '', 'console.log("upgraded from jQuery 1.4 to jQuery v3.7.1")'),
    ).toEqual([]);
  });

  it('trusts the file over its name', () => {
    // A file named like an old jQuery that really is the current one.
    expect(detectLibraries('https://s.example/jquery-1.4.2.js', '/*! jQuery v3.7.1 | (c) OpenJS */')).toEqual(
      [{ library: 'jquery', version: '3.7.1', how: 'file content' }],
    );
  });

  it('tells apart several vulnerable libraries bundled in one file', () => {
    const findings = libraryFindings(
      'https://s.example/js/vendor.js',
      'https://s.example/js/vendor.js',
      jquery1124 + bootstrap337,
    );
    expect(findings.map((f) => f.location).sort()).toEqual([
      'https://s.example/js/vendor.js#bootstrap@3.3.7',
      'https://s.example/js/vendor.js#jquery@1.12.4',
    ]);
  });
});
