// After a scan (completed, or stopped with what it found so far): findings into the deduplicating
// state machine (ingest_findings), the scan_results row as docs/product.md §3 describes it (severity_level =
// highest found; analyzed_results with counts and finding ids), then insights, recommendations and
// notifications. The scan's row is written before the slower analyses, so a stop shows at once.
import type { Finding, ScanType, Severity } from '../../shared/findings.ts';
import type { ServiceClient } from '../queue/client.ts';
import type { CrawlReport, PlacesReport } from '../scanners/core/context.ts';
import type { PhaseFailure } from '../scanners/core/phases.ts';
import type { ScanStop } from '../scanners/core/scan-stopped.ts';
import type { ScanResources } from '../scanners/isolation/scan-process.ts';
import type { Json } from '../../shared/database.types.ts';
import type { CategoryReport } from '../../shared/scan-categories.ts';
import { queueNotifications } from '../notify/outbox.ts';
import { fingerprint } from './fingerprint.ts';
import { computeInsights } from './insights.ts';
import { refreshRecommendations } from './recommendations.ts';

const order: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

export function highestSeverity(findings: readonly Pick<Finding, 'severity'>[]): Severity | 'none' {
  return order.find((s) => findings.some((f) => f.severity === s)) ?? 'none';
}

export interface ProcessInput {
  userId: string;
  scanId: string;
  targetId: string;
  scanner: ScanType;
  findings: Finding[];
  stats: { requests: number; duration_ms: number };
  /** Web scans: which crawl ran (and how the login went), shown with the scan. */
  crawl?: CrawlReport;
  /** Web scans: how many places got the per-place checks, by what found them, what the wordlist cost. */
  places?: PlacesReport;
  /** Which categories of checks ran, and which were left out for lack of the owner's consent. */
  categories?: CategoryReport;
  /** A stopped or budget-limited scan: its findings count, but it cannot prove anything fixed. */
  partial: boolean;
  /** Why the scan ended before every check ran (cancelled, time limit, memory cap, crash). */
  stopped?: ScanStop;
  /** Phases that failed or ran out of time, each with its reason. */
  phaseErrors?: PhaseFailure[];
  /** The time and memory limits of the scan's processes, and the peak memory seen. */
  resources?: ScanResources;
  finalStatus: 'completed' | 'stopped';
}

interface Ingested {
  new: string[];
  regressed: string[];
  fixed: string[];
  seen: string[];
  automatic_remediation: boolean;
  scan_label: string;
  scan_started: string;
}

export async function processScan(db: ServiceClient, input: ProcessInput): Promise<Ingested> {
  const rows = input.findings.map((f) => ({
    fingerprint: fingerprint(input.targetId, input.scanner, f),
    rule_id: f.rule_id,
    title: f.title.slice(0, 300),
    severity: f.severity,
    cvss_vector: f.cvss.vector,
    cvss_score: f.cvss.score,
    cwe: f.cwe,
    owasp: f.owasp,
    location: f.location,
    evidence: f.evidence,
    remediation: f.remediation,
    compliance: f.compliance,
  }));
  const { data, error } = await db.rpc('ingest_findings', {
    p_scan: input.scanId,
    p_findings: rows,
    p_complete: !input.partial && input.finalStatus === 'completed',
    // Rules of checks left out (intrusive, without consent): this scan proves none of their findings fixed.
    p_unchecked_rules: [...new Set((input.categories?.skipped ?? []).flatMap((s) => s.rules))],
  });
  if (error) {
    throw new Error(`ingest_findings failed: ${error.message}`);
  }
  const ingested = data as unknown as Ingested;
  const counts = Object.fromEntries(
    order.map((s) => [s, input.findings.filter((f) => f.severity === s).length]),
  );
  const severity = highestSeverity(input.findings);
  const { error: scanError } = await db
    .from('scan_results')
    .update({
      status: input.finalStatus,
      severity_level: severity,
      end_time: new Date().toISOString(),
      error_message: null,
      progress: {
        phase: input.finalStatus === 'stopped' ? 'stopped' : 'done',
        percent: input.finalStatus === 'stopped' ? undefined : 100,
      } as never,
      analyzed_results: {
        total: input.findings.length,
        counts,
        new: ingested.new.length,
        regressed: ingested.regressed.length,
        fixed: ingested.fixed.length,
        finding_ids: ingested.seen,
        new_finding_ids: ingested.new,
        fixed_finding_ids: ingested.fixed,
        partial: input.partial,
        ...(input.stopped ? { stopped: { ...input.stopped } } : {}),
        phase_errors: (input.phaseErrors ?? []).map((failure) => ({ ...failure })),
        ...(input.resources ? { resources: { ...input.resources } } : {}),
        stats: input.stats,
        scanner: input.scanner,
        // A plain JSON object (its optional fields are left out, never undefined).
        ...(input.crawl ? { crawl: JSON.parse(JSON.stringify(input.crawl)) as Json } : {}),
        ...(input.places ? { places: { ...input.places } } : {}),
        ...(input.categories ? { categories: JSON.parse(JSON.stringify(input.categories)) as Json } : {}),
      },
    })
    .eq('id', input.scanId);
  if (scanError) {
    throw new Error(`updating scan_results failed: ${scanError.message}`);
  }
  await analyse(db, input, ingested);
  return ingested;
}

/** Insights, recommendations and notifications; a failure here is logged by the caller, never loses the scan. */
async function analyse(db: ServiceClient, input: ProcessInput, ingested: Ingested): Promise<void> {
  let newServiceLocations: string[] = [];
  if (input.scanner === 'infrastructure' && ingested.new.length) {
    const { data, error } = await db.from('findings').select('location').in('id', ingested.new.slice(0, 500));
    if (error) {
      throw new Error(`reading new services failed: ${error.message}`);
    }
    newServiceLocations = [...new Set(data.map((f) => f.location))];
  }
  await computeInsights(db, {
    userId: input.userId,
    scanId: input.scanId,
    newCount: ingested.new.length,
    newServiceLocations,
    partial: input.partial,
  });
  await refreshRecommendations(db, input.userId, {
    targetId: input.targetId,
    label: ingested.scan_label,
    startedAt: ingested.scan_started,
    automaticRemediation: ingested.automatic_remediation,
    complete: !input.partial && input.finalStatus === 'completed',
  });
  await queueNotifications(db, input.userId, input.scanId);
}
