// Every discovered place gets the per-place checks: real servers whose problems sit only
// at a directory that the wordlist, a script or a robots.txt listing reaches (tests/fixtures/web/place-servers.ts),
// and a twin that must stay silent. Compared on the per-place checks' rules alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { ScanResult } from '../../agents/scanners/core/context.ts';
import { debianFile } from '../fixtures/debian-packages.ts';
import type { RunningFixture } from '../fixtures/planted.ts';
import {
  placeBinaries,
  placeRules,
  startApacheDav,
  startNginxDav,
  startNginxQuiet,
} from '../fixtures/web/place-servers.ts';
import { realRoot, requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

const suites = [
  {
    name: 'nginx with dav_methods under /api/, which nothing links to (the wordlist reaches it)',
    start: startNginxDav,
    needs: [debianFile(placeBinaries.nginx)],
    from: 'wordlist' as const,
  },
  {
    name: 'Apache with mod_dav where only a script names it, and Options Indexes where only robots.txt does',
    start: startApacheDav,
    // Apache drops to www-data: that needs real root, not root mapped in a user namespace.
    needs: [debianFile(placeBinaries.apache), realRoot()],
    from: 'discovered' as const,
  },
  {
    name: 'nginx with the same layout and no WebDAV (silent)',
    start: startNginxQuiet,
    needs: [debianFile(placeBinaries.nginx)],
    from: 'wordlist' as const,
  },
];

for (const suite of suites) {
  describe(`per-place checks: ${suite.name}`, requires(...suite.needs), () => {
    let fixture: RunningFixture;
    let result: ScanResult;
    beforeAll(async () => {
      fixture = await suite.start();
      result = await runScan('webapp', { target: fixture.target, mode: 'local', allowIntrusive: true });
    }, 120_000);
    afterAll(async () => {
      await fixture?.close();
    });

    it('finds each planted problem at its place, and nothing else of the per-place kind', () => {
      const m = measure(
        result.findings.filter((f) => placeRules.includes(f.rule_id)),
        fixture.planted,
        fixture.target,
      );
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      expect(result.partial).toBe(false);
    });

    it('records how many places got the checks, by what found them, and what the wordlist cost', () => {
      const places = result.places!;
      expect(places.checked).toBe(places.linked + places.discovered + places.listed + places.wordlist);
      expect(places[suite.from]).toBeGreaterThan(0);
      // The wordlist is bounded: its entries and their parents' missing answers, at most its budget.
      expect(places.wordlist_requests).toBeGreaterThan(0);
      expect(places.wordlist_requests).toBeLessThanOrEqual(40 + 4);
    });

    it('leaves nothing behind where it proved a write', async () => {
      for (const finding of result.findings.filter((f) => f.rule_id === 'web.webdav.write')) {
        expect(finding.evidence).toMatch(/cleanup: DELETE removed all \d/);
        const listing = await fetch(finding.location, { method: 'PROPFIND', headers: { depth: '1' } });
        expect(await listing.text()).not.toContain('vigil-write-probe');
      }
    });
  });
}
