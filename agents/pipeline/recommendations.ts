// ai_security_recommendations from the customer's open findings: one per root cause (one change fixes
// them all), prioritised by the worst severity and by exposure (how many places and targets show it),
// with the concrete steps of that change. Re-running keeps one live recommendation per cause, updated;
// what happens to a cause with no open finding left depends on automatic remediation (closeRecommendations).
import type { ServiceClient } from '../queue/client.ts';
import { closeRecommendations, type ScanVerdict } from './close-recommendations.ts';
import { groupRecommendations, type OpenFinding, type Recommendation } from './group-recommendations.ts';

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
