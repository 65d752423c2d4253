// ai_security_recommendations from the customer's open findings: one per root cause (one change fixes
// them all), prioritised by the worst severity and by exposure (how many places and targets show it),
// with the concrete steps of that change. Re-running keeps one live recommendation per cause, updated;
// what happens to a cause with no open finding left depends on automatic remediation (closeRecommendations).
import type { ServiceClient } from '../queue/client.ts';
import { closeRecommendations, type ScanVerdict } from './close-recommendations.ts';
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

export async function refreshRecommendations(
  db: ServiceClient,
  userId: string,
  scan: ScanVerdict,
): Promise<Recommendation[]> {
  const { data: open, error } = await db
    .from('findings')
    .select('id, rule_id, severity, target_id, location, title')
    .eq('user_id', userId)
    .eq('status', 'open')
    .limit(5000);
  if (error) {
    throw new Error(`reading open findings failed: ${error.message}`);
  }
  const wanted = groupRecommendations(open as OpenFinding[]);
  const { data: live, error: liveError } = await db
    .from('ai_security_recommendations')
    .select('id, category, status, verification_requested_at')
    .eq('user_id', userId)
    .in('status', ['pending', 'in_progress']);
  if (liveError) {
    throw new Error(`reading recommendations failed: ${liveError.message}`);
  }
  const byCategory = new Map(live.map((r) => [r.category, r]));
  // Insert in reverse priority so that "newest first" lists the most important first.
  for (const rec of [...wanted].reverse()) {
    const row = {
      title: rec.title,
      description: rec.description,
      priority: rec.priority,
      steps: rec.steps as never,
      finding_id: rec.finding_id,
    };
    const existing = byCategory.get(rec.category);
    const { error: writeError } = existing
      ? await db.from('ai_security_recommendations').update(row).eq('id', existing.id)
      : await db
          .from('ai_security_recommendations')
          .insert({ ...row, user_id: userId, category: rec.category, status: 'pending' });
    if (writeError) {
      throw new Error(`writing recommendation ${rec.category} failed: ${writeError.message}`);
    }
  }
  await closeRecommendations(db, live, wanted, open as OpenFinding[], scan);
  return wanted;
}
