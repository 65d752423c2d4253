// The web-application scanner: its checks (registry.ts) over one site, in a session when it has a login.
import { runChecks } from '../core/checks.ts';
import type { CategoryReport } from '../core/checks.ts';
import { startHttpScan } from '../core/http-scan.ts';
import type { ScanOptions, ScanResult } from '../core/context.ts';
import { webappChecks, webappLimits } from './registry.ts';
import type { WebScan } from './registry.ts';

export { webappLimits };

export function parseWebTarget(target: string): URL {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target : `http://${target}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`web targets are http:// or https:// URLs, not ${url.protocol}`);
  }
  url.hash = '';
  return url;
}

export async function runWebappScan(options: ScanOptions): Promise<ScanResult> {
  const started = Date.now();
  const start = parseWebTarget(options.target);
  const { policy, client, progress, phases, findings } = startHttpScan(options, webappLimits);
  const scan: WebScan = {
    options,
    policy,
    client,
    start,
    crawled: null,
    pages: [],
    endpoints: [],
    scripts: [],
    discovery: { endpoints: [], resources: [], findings: [] },
    found: (ruleId, location) => findings.has(ruleId, location),
  };
  let categories: CategoryReport;
  try {
    await policy.assertUrl(start);
    categories = await runChecks(webappChecks, scan, phases, findings, {
      allowIntrusive: options.allowIntrusive === true,
    });
  } finally {
    await scan.crawled?.close();
    client.close();
  }
  progress.finish();
  const crawled = scan.crawled;
  const crawl = crawled?.report;
  return {
    target: options.target,
    type: 'webapp',
    findings: findings.list(),
    stats: { requests: client.requests, duration_ms: Date.now() - started },
    ...(crawl
      ? { crawl: { ...crawl, ...(crawled?.session ? { login: crawled.session.report() } : {}) } }
      : {}),
    ...(scan.places ? { places: scan.places.report() } : {}),
    categories,
    ...phases.outcome(),
  };
}
