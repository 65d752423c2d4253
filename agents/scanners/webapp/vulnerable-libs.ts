// Known-vulnerable front-end libraries, identified by version in the script URL or the script's banner.
import semver from 'semver';

import type { Finding } from '../../../shared/findings.ts';
import { cvssBaseScore } from '../core/cvss.ts';
import { webappFinding } from './rules.ts';
import { libraries } from './vuln-db.ts';
import type { LibraryEntry } from './vuln-db.ts';

export interface DetectedLibrary {
  library: LibraryEntry;
  version: string;
}

export function detectLibraries(scriptUrl: string, content: string): DetectedLibrary[] {
  const found: DetectedLibrary[] = [];
  for (const library of libraries) {
    const match = [
      ...library.url.map((p) => p.exec(scriptUrl)),
      ...library.content.map((p) => p.exec(content)),
    ].find((m) => m?.[1]);
    if (match?.[1] && semver.valid(match[1])) {
      found.push({ library, version: match[1] });
    }
  }
  return found;
}

export function libraryFindings(location: string, scriptUrl: string, content: string): Finding[] {
  return detectLibraries(scriptUrl, content).flatMap(({ library, version }) => {
    const hits = library.vulnerabilities.filter((vuln) => semver.satisfies(version, vuln.range));
    if (hits.length === 0) {
      return [];
    }
    const worst = hits.reduce((a, b) => (cvssBaseScore(b.cvss) > cvssBaseScore(a.cvss) ? b : a));
    const evidence = `${library.name} ${version} (${scriptUrl}): ${hits.map((h) => `${h.ids.join(', ')} ${h.summary}`).join('; ')}`;
    return [webappFinding('web.vulnerable-library', { location, evidence, cvss: worst.cvss })];
  });
}
