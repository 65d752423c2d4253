// The report's risk score, 0–100. Each finding open at a moment counts its severity weight times its
// exposure (how long it has been left open: ×1 when new, rising linearly to ×2 at 90 days); the sum
// saturates as 100 × (1 − e^(−sum / 50)). So: no open findings → 0; one fresh critical → 18; five
// fresh criticals → 63; a backlog of old criticals → close to 100. False positives and accepted risks
// (while accepted) do not count.
import type { ReportFinding, Severity } from './types.ts';

export const SEVERITY_WEIGHT: Record<Severity, number> = {
  critical: 10,
  high: 6,
  medium: 3,
  low: 1,
  info: 0,
};
const DAY_MS = 86_400_000;
const SATURATION = 50;

type RiskInput = Pick<ReportFinding, 'severity' | 'status' | 'first_seen' | 'fixed_at'>;

/** Whether the finding was open at `at` (seen by then, not yet fixed, not dismissed). */
export function openAt(finding: RiskInput, at: Date): boolean {
  if (finding.status === 'false_positive' || finding.status === 'accepted_risk') {
    return false;
  }
  if (new Date(finding.first_seen).getTime() > at.getTime()) {
    return false;
  }
  return finding.fixed_at === null || new Date(finding.fixed_at).getTime() > at.getTime();
}

export function exposure(finding: RiskInput, at: Date): number {
  const ageDays = Math.max(0, (at.getTime() - new Date(finding.first_seen).getTime()) / DAY_MS);
  return 1 + Math.min(ageDays, 90) / 90;
}

export function riskScore(findings: Iterable<RiskInput>, at: Date): number {
  let sum = 0;
  for (const finding of findings) {
    if (openAt(finding, at)) {
      sum += SEVERITY_WEIGHT[finding.severity] * exposure(finding, at);
    }
  }
  return Math.round(100 * (1 - Math.exp(-sum / SATURATION)));
}

export function riskTrend(findings: readonly RiskInput[], periodStart: Date, periodEnd: Date) {
  const score = riskScore(findings, periodEnd);
  const previous = riskScore(findings, periodStart);
  return { score, previous, delta: score - previous };
}

export function riskLabel(score: number): string {
  return score >= 75
    ? 'Critical'
    : score >= 50
      ? 'High'
      : score >= 25
        ? 'Moderate'
        : score > 0
          ? 'Low'
          : 'None';
}
