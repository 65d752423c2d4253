// A file probe asks for one URL and reports it only when three things hold: it answers 200, its bytes
// carry the file type's own signature, and its answer is not what the server gives for anything missing
// there (NotFoundOracle). Every probe of the scan goes through one runner, so each URL is asked once.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { describeFile } from './file-signatures.ts';
import { webappFinding } from './rules.ts';
import type { WebappRuleId } from './rules.ts';
import { fileProbeInit } from './soft404.ts';
import type { NotFoundOracle } from './soft404.ts';

export interface FileProbe {
  url: URL;
  rule: WebappRuleId;
  /** True when the body is what such a file holds, not just any page. */
  signature: (body: string) => boolean;
  /** What the evidence says the file holds; describeFile otherwise. */
  describe?: (body: string) => string;
  /** When this file is worse than the rule's usual case. */
  cvss?: string;
  /** Read at most this many bytes (a heap dump's magic is enough). */
  maxBodyBytes?: number;
}

/** One probe per URL; the first one listed wins (callers list the most specific first). */
export function uniqueProbes(probes: FileProbe[]): FileProbe[] {
  const byUrl = new Map<string, FileProbe>();
  for (const probe of probes) {
    if (!byUrl.has(probe.url.href)) {
      byUrl.set(probe.url.href, probe);
    }
  }
  return [...byUrl.values()];
}

export async function runFileProbes(
  client: HttpClient,
  oracle: NotFoundOracle,
  probes: FileProbe[],
  tick: () => void,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  await forEachLimit(
    uniqueProbes(probes),
    6,
    async (probe) => {
      const maxBodyBytes = probe.maxBodyBytes ?? fileProbeInit.maxBodyBytes ?? Number.POSITIVE_INFINITY;
      const init = { ...fileProbeInit, maxBodyBytes };
      const response = await client.tryRequest(probe.url, init);
      tick();
      if (response?.status !== 200 || !probe.signature(response.body)) {
        return;
      }
      const note = await oracle.judge(probe.url, response);
      if (note === null) {
        return;
      }
      const what = (probe.describe ?? describeFile)(response.body);
      findings.push(
        webappFinding(probe.rule, {
          location: response.url,
          evidence: `HTTP 200, ${response.body.length}${response.body.length >= maxBodyBytes ? '+' : ''} bytes; ${what} (${note})`,
          ...(probe.cvss ? { cvss: probe.cvss } : {}),
        }),
      );
    },
    client.signal,
  );
  return findings;
}
