// The refresh's parser on recorded excerpts of the two packages' files (no network), and the committed
// data as the scanner loads it.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { retireDataSchema } from '../../agents/scanners/webapp/components/data-schema.ts';
import type { RetireData } from '../../agents/scanners/webapp/components/data-schema.ts';
import { retireRepository } from '../../agents/scanners/webapp/components/retire.ts';
import { technologyFingerprints } from '../../agents/scanners/webapp/components/technologies.ts';
import { compactRetire, compactTechnologies, shortSummary, sources } from './compact.ts';

const excerpt = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./excerpts/${name}`, import.meta.url), 'utf8'));
const source = { ...sources.retire, version: '0.0.0-test', refreshed: '2026-01-01' };

describe('committed component data', () => {
  it('parses, and says where it came from', () => {
    const { data } = retireRepository();
    expect(data.source.package).toBe(sources.retire.package);
    expect(Object.keys(data.libraries).length).toBeGreaterThan(50);
    expect(data.libraries.jquery!.vulnerabilities.length).toBeGreaterThan(10);
    const tech = technologyFingerprints().data;
    expect(tech.source.package).toBe(sources.technologies.package);
    expect(Object.keys(tech.technologies).length).toBeGreaterThan(1000);
  });
});

describe('damaged component data', () => {
  it('is refused with the path of what is wrong', () => {
    const file = new URL('../../agents/scanners/webapp/components/data/retire.json', import.meta.url);
    const data = JSON.parse(readFileSync(file, 'utf8')) as RetireData;
    const jquery = data.libraries.jquery!;
    (jquery.vulnerabilities[0] as { severity: string }).severity = 'urgent';
    expect(retireDataSchema.safeParse(data).error?.issues[0]?.path).toEqual([
      'libraries',
      'jquery',
      'vulnerabilities',
      0,
      'severity',
    ]);
    jquery.vulnerabilities[0]!.severity = 'medium';
    jquery.filecontent = ['jQuery v(§§version§§'];
    expect(retireDataSchema.safeParse(data).success).toBe(false);
    jquery.filecontent = ['jQuery v1.2.3'];
    expect(retireDataSchema.safeParse(data).error?.message).toMatch(/without a \(§§version§§\) group/);
  });
});

describe('refresh parser', () => {
  it('reduces retire.js repository entries to what the scanner matches on', () => {
    const data = compactRetire(excerpt('retire-jsrepository.json'), source);
    // The skip list, retire.js's example and AST-only entries are not libraries we can find over HTTP.
    expect(Object.keys(data.libraries).sort()).toEqual(['DWR', 'jquery', 'lodash']);
    const jquery = data.libraries.jquery!;
    expect(jquery.filecontent).toContain('/\\*!? jQuery v(§§version§§)');
    expect(jquery.vulnerabilities[0]).toEqual({
      below: '1.6.3',
      severity: 'medium',
      ids: ['CVE-2011-4969', 'GHSA-579v-mp3v-rrw5'],
      summary: 'XSS with location.hash',
    });
    // No CVE: retire.js's own reference, with a link that documents it.
    const parseHtml = jquery.vulnerabilities.find((v) => v.ids.includes('issue 11974'));
    expect(parseHtml?.info).toMatch(/^https?:\/\//);
    // A malformed upstream CVE id is kept as written rather than losing the entry.
    expect(data.libraries.DWR!.vulnerabilities[0]!.ids).toEqual(['CVE-2007-01-09']);
  });

  it('refuses a repository it cannot trust, saying where', () => {
    const raw = excerpt('retire-jsrepository.json') as Record<
      string,
      { vulnerabilities: object[]; extractors: object }
    >;
    const noBound = structuredClone(raw);
    delete (noBound.jquery!.vulnerabilities[0] as { below?: string }).below;
    expect(() => compactRetire(noBound, source)).toThrow(/jquery[\s\S]*below/);
    const badRegex = structuredClone(raw);
    badRegex.lodash!.extractors = { filecontent: ['lodash (§§version§§'] };
    expect(() => compactRetire(badRegex, source)).toThrow(/does not compile/);
    const badSeverity = structuredClone(raw);
    (badSeverity.jquery!.vulnerabilities[0] as { severity: string }).severity = 'urgent';
    expect(() => compactRetire(badSeverity, source)).toThrow(/severity/);
    expect(() => compactRetire([], source)).toThrow();
  });

  it('keeps the first sentence of a long advisory summary', () => {
    expect(
      shortSummary(
        'Versions of jquery prior to 1.9.0 are vulnerable to XSS. The load method fails.\n\n## Fix',
      ),
    ).toBe('Versions of jquery prior to 1.9.0 are vulnerable to XSS.');
    expect(shortSummary(undefined)).toBe('');
  });

  it('reduces Wappalyzer technologies to header, cookie and meta fingerprints', () => {
    const { data, dropped } = compactTechnologies(excerpt('wappalyzer-technologies.json'), {
      ...sources.technologies,
      version: '0.0.0-test',
      refreshed: '2026-01-01',
    });
    expect(dropped).toEqual([]);
    // jQuery is recognised only in scripts and JavaScript globals, which this data set leaves out.
    expect(Object.keys(data.technologies).sort()).toEqual([
      'Apache HTTP Server',
      'Nginx',
      'PHP',
      'WordPress',
      'lighttpd',
    ]);
    expect(data.technologies.PHP!.headers!['x-powered-by']).toBe('^php/?([\\d.]+)?\\;version:\\1');
    expect(data.technologies.WordPress!.meta!.generator).toEqual(['^WordPress(?: ([\\d.]+))?\\;version:\\1']);
    const broken = { Broken: { headers: { Server: 'broken(' } } };
    expect(compactTechnologies(broken, data.source).dropped).toEqual(['Broken header Server']);
  });
});
