// ml_insights from the customer's own history, each with a confidence derived from its statistic:
//  * anomaly: new findings in this scan against an EWMA baseline of earlier scans (confidence Φ(z));
//  * trend: attack-surface growth, newly exposed services (Laplace n/(n+1), halved for partial scans);
//  * pattern: one misconfiguration on several targets (share of the customer's targets that show it);
//  * trend: time to remediate, last 30 days against the 60 before (Welch z, confidence 2Φ(|z|)-1).
// An insight with the same key within a week is not repeated.
import type { ServiceClient } from '../queue/client.ts';
import { clamp01, ewma, mean, normalCdf, round3, welchZ } from './stats.ts';

export interface Insight {
  key: string;
  title: string;
  description: string;
  insight_type: 'anomaly' | 'trend' | 'pattern' | 'prediction';
  confidence_score: number;
  data: Record<string, unknown>;
}

export const MIN_BASELINE_SCANS = 3;

/** New-findings jump: `current` against the EWMA of `history` (oldest first). */
export function newFindingsAnomaly(
  history: readonly number[],
  current: number,
  scanId: string,
): Insight | null {
  if (history.length < MIN_BASELINE_SCANS || current < 3) {
    return null;
  }
  const { mean: baseline, variance } = ewma(history);
  // A perfectly steady history has no spread; one finding of spread keeps z finite and honest.
  const sd = Math.max(Math.sqrt(variance), 1);
  const z = (current - baseline) / sd;
  if (z < 2) {
    return null;
  }
  return {
    key: `anomaly:new-findings:${scanId}`,
    title: 'Unusual jump in new findings',
    description: `This scan found ${current} new issues; your baseline over the last ${history.length} scans is ${baseline.toFixed(1)} (z = ${z.toFixed(1)}). Something changed on the target: a deployment, a configuration change or newly exposed content.`,
    insight_type: 'anomaly',
    confidence_score: round3(normalCdf(z)),
    data: { z: round3(z), baseline: round3(baseline), current, scans: history.length },
  };
}

export function attackSurfaceGrowth(
  newServiceLocations: readonly string[],
  partial: boolean,
  scanId: string,
): Insight | null {
  const n = newServiceLocations.length;
  if (n === 0) {
    return null;
  }
  return {
    key: `trend:attack-surface:${scanId}`,
    title: 'Attack surface grew',
    description: `${n} network service${n === 1 ? '' : 's'} newly reachable since the previous scan: ${newServiceLocations.slice(0, 8).join(', ')}. Close what is not meant to be public.`,
    insight_type: 'trend',
    confidence_score: round3((n / (n + 1)) * (partial ? 0.5 : 1)),
    data: { new_services: newServiceLocations.slice(0, 50), partial },
  };
}

export function sharedMisconfigurations(
  open: readonly { rule_id: string; title: string; target_id: string | null }[],
): Insight[] {
  const targets = new Set(open.map((f) => f.target_id).filter(Boolean));
  const byRule = new Map<string, { title: string; targets: Set<string> }>();
  for (const f of open) {
    if (!f.target_id) {
      continue;
    }
    const entry = byRule.get(f.rule_id) ?? { title: f.title, targets: new Set<string>() };
    entry.targets.add(f.target_id);
    byRule.set(f.rule_id, entry);
  }
  return [...byRule.entries()]
    .filter(([, e]) => e.targets.size >= 2)
    .map(([rule, e]) => ({
      key: `pattern:${rule}:${e.targets.size}`,
      title: 'Same misconfiguration on several targets',
      description: `"${e.title}" is open on ${e.targets.size} of your ${targets.size} targets: likely a shared template, image or default. Fix it at the source once.`,
      insight_type: 'pattern' as const,
      confidence_score: round3(clamp01(e.targets.size / targets.size)),
      data: { rule_id: rule, targets: e.targets.size, of: targets.size },
    }));
}

/** Hours to fix, recent window against the earlier one. */
export function remediationTrend(
  recentHours: readonly number[],
  earlierHours: readonly number[],
  day: string,
): Insight | null {
  if (recentHours.length < 3 || earlierHours.length < 3) {
    return null;
  }
  const z = welchZ(recentHours, earlierHours);
  if (Math.abs(z) < 1.5) {
    return null;
  }
  const faster = z < 0;
  return {
    key: `trend:remediation:${day}`,
    title: faster ? 'Issues are being fixed faster' : 'Issues are taking longer to fix',
    description: `Mean time to fix was ${mean(recentHours).toFixed(0)} h over the last 30 days against ${mean(earlierHours).toFixed(0)} h in the 60 days before (${recentHours.length} and ${earlierHours.length} fixes).`,
    insight_type: 'trend',
    confidence_score: round3(2 * normalCdf(Math.abs(z)) - 1),
    data: { z: round3(z), recent: recentHours.length, earlier: earlierHours.length },
  };
}

export interface ScanOutcome {
  userId: string;
  scanId: string;
  newCount: number;
  newServiceLocations: string[];
  partial: boolean;
}

export async function computeInsights(db: ServiceClient, outcome: ScanOutcome): Promise<Insight[]> {
  const [history, open, fixed, recent] = await Promise.all([
    db
      .from('scan_results')
      .select('id, analyzed_results')
      .eq('user_id', outcome.userId)
      .eq('status', 'completed')
      .neq('id', outcome.scanId)
      .order('created_at', { ascending: false })
      .limit(30),
    db
      .from('findings')
      .select('rule_id, title, target_id')
      .eq('user_id', outcome.userId)
      .eq('status', 'open')
      .limit(5000),
    db
      .from('findings')
      .select('first_seen, fixed_at')
      .eq('user_id', outcome.userId)
      .eq('status', 'fixed')
      .gte('fixed_at', new Date(Date.now() - 90 * 86_400_000).toISOString())
      .limit(5000),
    db
      .from('ml_insights')
      .select('data')
      .eq('user_id', outcome.userId)
      .gte('created_at', new Date(Date.now() - 7 * 86_400_000).toISOString())
      .limit(500),
  ]);
  for (const r of [history, open, fixed, recent]) {
    if (r.error) {
      throw new Error(`reading history for insights failed: ${r.error.message}`);
    }
  }
  const series = (history.data ?? [])
    .map((s) => (s.analyzed_results as { new?: unknown } | null)?.new)
    .filter((n): n is number => typeof n === 'number')
    .reverse();
  const cutoff = Date.now() - 30 * 86_400_000;
  const hours = (f: { first_seen: string; fixed_at: string | null }) =>
    (Date.parse(f.fixed_at ?? '') - Date.parse(f.first_seen)) / 3_600_000;
  const fixes = fixed.data ?? [];
  const candidates = [
    newFindingsAnomaly(series, outcome.newCount, outcome.scanId),
    attackSurfaceGrowth(outcome.newServiceLocations, outcome.partial, outcome.scanId),
    ...sharedMisconfigurations(open.data ?? []),
    remediationTrend(
      fixes.filter((f) => Date.parse(f.fixed_at ?? '') >= cutoff).map(hours),
      fixes.filter((f) => Date.parse(f.fixed_at ?? '') < cutoff).map(hours),
      new Date().toISOString().slice(0, 10),
    ),
  ].filter((i): i is Insight => i !== null);
  const seen = new Set((recent.data ?? []).map((r) => (r.data as { key?: string } | null)?.key));
  const fresh = candidates.filter((i) => !seen.has(i.key));
  if (fresh.length) {
    const { error } = await db.from('ml_insights').insert(
      fresh.map((i) => ({
        user_id: outcome.userId,
        title: i.title,
        description: i.description,
        insight_type: i.insight_type,
        confidence_score: i.confidence_score,
        data: { ...i.data, key: i.key } as never,
      })),
    );
    if (error) {
      throw new Error(`writing insights failed: ${error.message}`);
    }
  }
  return fresh;
}
