// A finding's identity across scans: the same rule at the same place on the same target is one finding,
// whatever its evidence says this time (a rotated session cookie value must not make a "new" finding).
import { createHash } from 'node:crypto';
import type { Finding, ScanType } from '../../shared/findings.ts';

/**
 * Location without volatile parts: lower-case scheme and host, no fragment, default ports dropped. What a
 * location means (the URL a crawl asked for rather than a random landing URL) is settled where the
 * finding is made, by the scanner that knows.
 */
export function normaliseLocation(location: string): string {
  try {
    const url = new URL(location);
    url.hash = '';
    return url.href;
  } catch {
    return location.trim();
  }
}

export function fingerprint(
  targetId: string,
  scanner: ScanType,
  finding: Pick<Finding, 'rule_id' | 'location'>,
): string {
  return createHash('sha256')
    .update([targetId, scanner, finding.rule_id, normaliseLocation(finding.location)].join('\n'))
    .digest('hex');
}
