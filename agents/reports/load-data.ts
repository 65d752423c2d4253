// Reads what one report is drawn from, with the service key but always filtered to the report's owner:
// the profile's company name, the findings alive during the period (paged, so 10,000 rows never
// travel in one response), scans, security events, insights and recommendations of the period.
import type { Json } from '../../shared/database.types.ts';
import { completenessNote } from '../../shared/scan-completeness.ts';
import type { ServiceClient } from '../queue/client.ts';
import { riskTrend } from './risk.ts';
import {
  INCOMPLETE_SCANS_LISTED,
  SEVERITIES,
  type IncompleteScan,
  type ReportData,
  type ReportFinding,
  type ReportType,
} from './types.ts';

const PAGE = 1000;
const FINDING_COLUMNS =
  'id, rule_id, title, severity, status, scanner, location, evidence, remediation, cwe, cvss_score, compliance, first_seen, fixed_at';

export interface ReportTarget {
  reportId: string;
  userId: string;
  reportType: ReportType;
  configurationName: string;
  periodStart: Date;
  periodEnd: Date;
}

function fail(what: string, error: { message: string }): never {
  throw new Error(`reading ${what} failed: ${error.message}`);
}

async function loadFindings(db: ServiceClient, t: ReportTarget): Promise<ReportFinding[]> {
  const rows: ReportFinding[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await db
      .from('findings')
      .select(FINDING_COLUMNS)
      .eq('user_id', t.userId)
      .neq('status', 'false_positive')
      .lte('first_seen', t.periodEnd.toISOString())
      .or(`fixed_at.is.null,fixed_at.gte.${t.periodStart.toISOString()}`)
      .order('id')
      .range(from, from + PAGE - 1);
    if (error) {
      fail('findings', error);
    }
    for (const row of data) {
      rows.push({
        ...row,
        cvss_score: row.cvss_score === null ? null : Number(row.cvss_score),
        compliance: Array.isArray(row.compliance) ? (row.compliance as never) : [],
      } as ReportFinding);
    }
    if (data.length < PAGE) {
      return rows;
    }
  }
}

/** What did not finish in a partial scan, as the scans table says it (at most five parts listed). */
function incompleteScan(row: {
  target: string | null;
  created_at: string;
  stopped: Json;
  phase_errors: Json;
}): IncompleteScan {
  const note = completenessNote({ partial: true, stopped: row.stopped, phase_errors: row.phase_errors });
  return {
    target: row.target ?? 'a target since removed',
    at: row.created_at,
    note: note?.text ?? 'Partial result',
    details: (note?.details ?? []).slice(0, 5),
  };
}

export async function loadReportData(
  db: ServiceClient,
  t: ReportTarget,
  now = new Date(),
): Promise<ReportData> {
  const start = t.periodStart.toISOString();
  const end = t.periodEnd.toISOString();
  const [profile, findings, scans, events, insights, recommendations] = await Promise.all([
    db.from('profiles').select('company_name').eq('id', t.userId).maybeSingle(),
    loadFindings(db, t),
    db
      .from('scan_results')
      .select(
        'status, target, created_at, partial:analyzed_results->partial, stopped:analyzed_results->stopped, phase_errors:analyzed_results->phase_errors',
      )
      .eq('user_id', t.userId)
      .gte('created_at', start)
      .lt('created_at', end)
      .limit(10_000),
    db
      .from('security_events')
      .select('severity, status')
      .eq('user_id', t.userId)
      .gte('created_at', start)
      .lt('created_at', end)
      .limit(10_000),
    db
      .from('ml_insights')
      .select('title, confidence_score')
      .eq('user_id', t.userId)
      .lt('created_at', end)
      .order('created_at', { ascending: false })
      .limit(5),
    db
      .from('ai_security_recommendations')
      .select('title, priority, category')
      .eq('user_id', t.userId)
      .eq('status', 'pending')
      .order('created_at', { ascending: false })
      .limit(5),
  ]);
  for (const [what, r] of [
    ['profile', profile],
    ['scans', scans],
    ['events', events],
    ['insights', insights],
    ['recommendations', recommendations],
  ] as const) {
    if (r.error) {
      fail(what, r.error);
    }
  }
  const endMs = t.periodEnd.getTime();
  const startMs = t.periodStart.getTime();
  // The table lists what was still open at the end of the period, worst first.
  const open = findings
    .filter(
      (f) =>
        f.status !== 'accepted_risk' &&
        new Date(f.first_seen).getTime() <= endMs &&
        (f.fixed_at === null || new Date(f.fixed_at).getTime() > endMs),
    )
    .sort(
      (a, b) =>
        SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
        (b.cvss_score ?? 0) - (a.cvss_score ?? 0) ||
        a.title.localeCompare(b.title),
    );
  const partialScans = (scans.data ?? [])
    .filter((s) => s.status === 'completed' && s.partial === true)
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  const bySeverity: Record<string, number> = {};
  for (const e of events.data ?? []) {
    bySeverity[e.severity] = (bySeverity[e.severity] ?? 0) + 1;
  }
  return {
    ...t,
    companyName: profile.data?.company_name?.trim() || 'Your organisation',
    generatedAt: now,
    open,
    fixedInPeriod: findings.filter(
      (f) =>
        f.fixed_at !== null &&
        new Date(f.fixed_at).getTime() >= startMs &&
        new Date(f.fixed_at).getTime() <= endMs,
    ).length,
    newInPeriod: findings.filter((f) => new Date(f.first_seen).getTime() >= startMs).length,
    risk: riskTrend(findings, t.periodStart, t.periodEnd),
    scans: {
      total: scans.data?.length ?? 0,
      completed: (scans.data ?? []).filter((s) => s.status === 'completed').length,
      // Completed scans that did not run every check (a time limit, a failed phase): said in the summary,
      // the newest listed with what did not finish.
      partial: partialScans.length,
      incomplete: partialScans.slice(0, INCOMPLETE_SCANS_LISTED).map(incompleteScan),
      failed: (scans.data ?? []).filter((s) => s.status === 'failed').length,
    },
    events: {
      total: events.data?.length ?? 0,
      open: (events.data ?? []).filter((e) => e.status === 'open').length,
      bySeverity,
    },
    insights: (insights.data ?? []).map((i) => ({ title: i.title, confidence: i.confidence_score })),
    recommendations: (recommendations.data ?? []).map((r) => ({
      title: r.title,
      priority: r.priority,
      category: r.category,
    })),
  };
}
