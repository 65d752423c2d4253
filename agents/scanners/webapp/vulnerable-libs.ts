// Known-vulnerable front-end libraries: retire.js's detection and ranges (components/retire.ts) turned
// into findings, one per library and version in each script, with the CVEs, the worst severity and the
// release that fixes them.
import type { Finding } from '../../../shared/findings.ts';
import type { LibraryVulnerability, Severity } from './components/data-schema.ts';
import {
  affects,
  detectInContent,
  detectInUrl,
  endOfLine,
  firstSafeVersion,
  isAtOrAbove,
  retireRepository,
} from './components/retire.ts';
import type { Detection } from './components/retire.ts';
import { webappFinding } from './rules.ts';

/** retire.js gives a severity, not a vector: each maps to a representative CVSS 3.1 vector. */
const vectorOf: Record<Severity, string | undefined> = {
  low: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
  medium: undefined, // the rule's own vector (6.1, XSS-like): most library advisories are of that kind
  high: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  critical: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
};
const rank: Record<Severity, number> = { low: 0, medium: 1, high: 2, critical: 3 };

/**
 * What a script holds: content-based detections win over the URL's claim for the same library (a file
 * named jquery-1.4.js that really is 3.7.1 is 3.7.1); the URL alone judges scripts we did not fetch.
 */
export function detectLibraries(scriptUrl: string, content: string): Detection[] {
  const fromContent = content ? detectInContent(content) : [];
  const fromUrl = URL.canParse(scriptUrl) ? detectInUrl(new URL(scriptUrl)) : [];
  const known = new Set(fromContent.map((d) => d.library));
  return [...fromContent, ...fromUrl.filter((d) => !known.has(d.library))];
}

/**
 * The advisories grouped by the release that fixes them, newest fix first, so the evidence stays short
 * enough to read (and to keep within a finding's 500 characters) when a library has dozens.
 */
function advisories(hits: LibraryVulnerability[]): string {
  const groups = new Map<string, Set<string>>();
  const seen = new Set<string>();
  for (const hit of [...hits].sort((a, b) => (isAtOrAbove(a.below, b.below) ? -1 : 1))) {
    const cves = hit.ids.filter((id) => id.startsWith('CVE-'));
    const key = endOfLine(hit.below) ? 'end of life' : `fixed in ${hit.below}`;
    const ids = groups.get(key) ?? new Set<string>();
    // An advisory listed for several ranges is named once, under its latest fix.
    (cves.length > 0 ? cves : hit.ids.slice(0, 1))
      .filter((id) => !seen.has(id))
      .forEach((id) => {
        seen.add(id);
        ids.add(id);
      });
    groups.set(key, ids);
  }
  return [...groups]
    .filter(([, ids]) => ids.size > 0)
    .sort(([a], [b]) => Number(a === 'end of life') - Number(b === 'end of life'))
    .map(([fix, ids]) => `${[...ids].join(', ')} (${fix})`)
    .join('; ');
}

/**
 * Findings for one script. `location` is the script's URL (or the page of an inline script); a file
 * that bundles several vulnerable libraries gets one finding each, told apart by `#library@version`.
 */
export function libraryFindings(location: string, scriptUrl: string, content: string): Finding[] {
  const { data } = retireRepository();
  const vulnerable = detectLibraries(scriptUrl, content).flatMap((detection) => {
    const entry = data.libraries[detection.library]!;
    const hits = entry.vulnerabilities
      .filter((v) => affects(v, detection.version))
      .sort(
        (a, b) =>
          rank[b.severity] - rank[a.severity] ||
          Number(b.ids[0]!.startsWith('CVE-')) - Number(a.ids[0]!.startsWith('CVE-')) ||
          (isAtOrAbove(a.below, b.below) ? -1 : 1),
      );
    return hits.length > 0 ? [{ detection, entry, hits }] : [];
  });
  return vulnerable.map(({ detection: { library, version, how }, entry, hits }) => {
    const worst = hits[0]!.severity;
    const safe = firstSafeVersion(entry, version);
    const origin = scriptUrl
      ? `the ${how}`
      : `an inline script's ${how === 'file content' ? 'content' : how}`;
    const count = hits.length === 1 ? '1 known vulnerability' : `${hits.length} known vulnerabilities`;
    const evidence = `${library} ${version} (version from ${origin}): ${count}, worst ${worst}: ${advisories(hits)}${hits[0]!.summary ? `. Worst: ${hits[0]!.summary}` : ''}`;
    const remediation = safe
      ? `Upgrade ${library} from ${version} to ${safe} or later, the first release none of its known vulnerabilities affects; keep front-end dependencies under automated updates.`
      : `No release of ${library} fixes every known vulnerability of ${version} (the line is end-of-life): replace it with a maintained library, or mitigate each advisory in the evidence.`;
    return webappFinding('web.vulnerable-library', {
      location: vulnerable.length > 1 ? `${location}#${library}@${version}` : location,
      evidence,
      remediation,
      ...(vectorOf[worst] ? { cvss: vectorOf[worst] } : {}),
    });
  });
}
