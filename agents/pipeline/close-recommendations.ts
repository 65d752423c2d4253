// What a scan does to live recommendations, by the owner's automatic remediation setting (docs/product.md §11):
//   * on: a cause with no open finding left is completed by the agent ("Verified fixed by the scan of …");
//   * off: nothing is closed automatically (the customer marks it implemented);
//   * a recommendation the customer marked implemented (awaiting verification) whose cause a complete scan
//     of that target, started after the customer's word, still sees is pending again, saying so.
import type { ServiceClient } from '../queue/client.ts';
import type { OpenFinding, Recommendation } from './group-recommendations.ts';
import { rootCauseOf } from './root-causes.ts';

export interface ScanVerdict {
  targetId: string;
  /** "the scan of 2026-11-22 09:10 UTC", as the database words it (scan_label). */
  label: string;
  /** When the scan started (ISO). */
  startedAt: string;
  /** The owner's setting when the scan's findings were ingested. */
  automaticRemediation: boolean;
  /** A complete scan (not stopped, not partial): only it can prove something fixed or still there. */
  complete: boolean;
}

export interface LiveRecommendation {
  id: string;
  category: string;
  status: string;
  verification_requested_at: string | null;
}

export async function closeRecommendations(
  db: ServiceClient,
  live: readonly LiveRecommendation[],
  wanted: readonly Recommendation[],
  open: readonly OpenFinding[],
  scan: ScanVerdict,
): Promise<void> {
  const wantedCategories = new Set(wanted.map((w) => w.category));
  const done = live.filter((r) => !wantedCategories.has(r.category)).map((r) => r.id);
  // Guard: with automatic remediation off nothing is closed automatically; a partial scan proves nothing.
  if (scan.automaticRemediation && scan.complete && done.length) {
    const { error } = await db
      .from('ai_security_recommendations')
      .update({
        status: 'completed',
        completed_at: new Date().toISOString(),
        completed_by: 'agent',
        resolution: `Verified fixed by ${scan.label}`,
        verification_requested_at: null,
      })
      .in('id', done);
    if (error) {
      throw new Error(`closing recommendations failed: ${error.message}`);
    }
  }
  if (!scan.complete) {
    return;
  }
  const seenHere = new Set(
    open.filter((f) => f.target_id === scan.targetId).map((f) => rootCauseOf(f.rule_id).key),
  );
  const stillSeen = live
    .filter(
      (r) =>
        r.status === 'in_progress' &&
        r.verification_requested_at !== null &&
        Date.parse(scan.startedAt) >= Date.parse(r.verification_requested_at) &&
        seenHere.has(r.category),
    )
    .map((r) => r.id);
  if (stillSeen.length) {
    const { error } = await db
      .from('ai_security_recommendations')
      .update({
        status: 'pending',
        verification_requested_at: null,
        verification_queued_at: null,
        resolution: `Not fixed yet: ${scan.label} still sees it`,
      })
      .in('id', stillSeen);
    if (error) {
      throw new Error(`reopening recommendations failed: ${error.message}`);
    }
  }
}
