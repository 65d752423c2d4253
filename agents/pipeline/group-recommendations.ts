// One recommendation per root cause of the customer's open findings (one change fixes them all),
// prioritised by the worst severity and by exposure (how many places and targets show it), with the
// concrete steps of that change. Pure: recommendations.ts reads the findings and writes the result.
import { rootCauseOf } from './root-causes.ts';

type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';
const rank: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

export interface OpenFinding {
  id: string;
  rule_id: string;
  severity: Severity;
  target_id: string | null;
  location: string;
  title: string;
}

export interface Recommendation {
  category: string;
  title: string;
  description: string;
  priority: 'high' | 'medium' | 'low';
  steps: unknown[];
  finding_id: string;
  exposure: number;
}

/** Exposure this wide raises the priority by one step. */
export const WIDE_EXPOSURE = 5;

export function groupRecommendations(findings: readonly OpenFinding[]): Recommendation[] {
  const groups = new Map<string, OpenFinding[]>();
  for (const f of findings) {
    const key = rootCauseOf(f.rule_id).key;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const out: Recommendation[] = [];
  for (const list of groups.values()) {
    const cause = rootCauseOf(list[0]!.rule_id);
    const worst = list.reduce((a, b) => (rank[b.severity] > rank[a.severity] ? b : a));
    const exposure = new Set(list.map((f) => `${f.target_id}\u0000${f.location}`)).size;
    const targets = new Set(list.map((f) => f.target_id)).size;
    const base = rank[worst.severity] >= 3 ? 2 : rank[worst.severity] === 2 ? 1 : 0;
    const level = Math.min(2, base + (exposure >= WIDE_EXPOSURE ? 1 : 0));
    const places = [...new Set(list.map((f) => f.location))].slice(0, 5);
    out.push({
      category: cause.key,
      title: cause.title,
      description: `${cause.summary} ${list.length} open finding${list.length === 1 ? '' : 's'} (worst: ${worst.severity}) at ${exposure} place${exposure === 1 ? '' : 's'} on ${targets} target${targets === 1 ? '' : 's'}, e.g. ${places.join(', ')}.`,
      priority: (['low', 'medium', 'high'] as const)[level]!,
      steps: cause.steps,
      finding_id: worst.id,
      exposure,
    });
  }
  const priorityRank = { high: 2, medium: 1, low: 0 };
  return out.sort((a, b) => priorityRank[b.priority] - priorityRank[a.priority] || b.exposure - a.exposure);
}
