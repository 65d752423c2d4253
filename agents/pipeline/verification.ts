// Verification rescans (automatic remediation, docs/product.md §11): when the customer marks a recommendation
// implemented with automatic remediation on, the agents queue a scan of every target where that cause is
// still open. They go through enqueue_scan like any scan, so the queue's order, the per-target concurrency
// limit and the one-running-scan-per-type rule apply; the scan's result then closes or reopens it
// (close-recommendations.ts). Idempotent per request and target, so every worker may run this duty.
import { toolScanner, type ToolType } from '../../supabase/functions/_shared/scanner-tools.ts';
import type { Database } from '../../shared/database.types.ts';
import type { ServiceClient } from '../queue/client.ts';
import { rootCauseOf } from './root-causes.ts';

export interface VerificationOutcome {
  queued: number;
  /** Waiting for a running scan of the same type to end (retried on the next tick). */
  waiting: number;
  completed: number;
  errors: string[];
}

interface Requested {
  id: string;
  user_id: string;
  category: string;
  verification_requested_at: string;
}

export async function enqueueVerificationScans(db: ServiceClient): Promise<VerificationOutcome> {
  const outcome: VerificationOutcome = { queued: 0, waiting: 0, completed: 0, errors: [] };
  const { data, error } = await db
    .from('ai_security_recommendations')
    .select('id, user_id, category, verification_requested_at')
    .eq('status', 'in_progress')
    .not('verification_requested_at', 'is', null)
    .is('verification_queued_at', null)
    .order('verification_requested_at')
    .limit(100);
  if (error) {
    throw new Error(`reading verification requests failed: ${error.message}`);
  }
  // One read of each customer's setting and open findings per tick, however many requests it has.
  const owners = new Map<string, Promise<OpenFinding[] | null>>();
  for (const rec of data as Requested[]) {
    try {
      let owner = owners.get(rec.user_id);
      if (!owner) {
        owner = ownerFindings(db, rec.user_id);
        owners.set(rec.user_id, owner);
      }
      const open = await owner;
      // Guard: the customer turned automatic remediation off since asking: the agents queue nothing for them.
      if (open !== null) {
        await verifyOne(db, rec, open, outcome);
      }
    } catch (e) {
      outcome.errors.push(`${rec.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return outcome;
}

type OpenFinding = { rule_id: string; target_id: string | null; scanner: string };

/** The owner's open findings on targets, or null when automatic remediation is off for them. */
async function ownerFindings(db: ServiceClient, userId: string): Promise<OpenFinding[] | null> {
  const { data: settings, error: settingsError } = await db
    .from('user_settings')
    .select('automatic_remediation')
    .eq('user_id', userId)
    .maybeSingle();
  if (settingsError) {
    throw new Error(`reading settings failed: ${settingsError.message}`);
  }
  if (!settings?.automatic_remediation) {
    return null;
  }
  const { data: open, error: openError } = await db
    .from('findings')
    .select('rule_id, target_id, scanner')
    .eq('user_id', userId)
    .eq('status', 'open')
    .not('target_id', 'is', null)
    .limit(5000);
  if (openError) {
    throw new Error(`reading open findings failed: ${openError.message}`);
  }
  return open;
}

async function verifyOne(
  db: ServiceClient,
  rec: Requested,
  open: readonly OpenFinding[],
  outcome: VerificationOutcome,
): Promise<void> {
  const targets = new Map<string, { targetId: string; scanner: ToolType }>();
  for (const f of open) {
    if (rootCauseOf(f.rule_id).key === rec.category && f.target_id) {
      targets.set(`${f.target_id}/${f.scanner}`, { targetId: f.target_id, scanner: f.scanner as ToolType });
    }
  }
  if (targets.size === 0) {
    // Earlier scans already saw every finding of this cause fixed: that is the verification.
    await mark(db, rec.id, {
      status: 'completed',
      completed_at: new Date().toISOString(),
      completed_by: 'agent',
      resolution: 'Verified fixed: no open finding of this cause is left',
      verification_requested_at: null,
    });
    outcome.completed++;
    return;
  }
  let allQueued = true;
  for (const { targetId, scanner } of targets.values()) {
    const { error: enqueueError } = await db.rpc('enqueue_scan', {
      p_user: rec.user_id,
      p_tool: scanner,
      p_target_id: targetId,
      p_scanner: toolScanner[scanner] ?? scanner,
      p_options: {},
      p_idempotency_key: `verify:${rec.id}:${rec.verification_requested_at}:${targetId}:${scanner}`,
      p_trigger: 'verification',
    });
    if (enqueueError) {
      allQueued = false;
      // A scan of this type already running (23505) finishes first, and a customer whose agent lapsed
      // (PT402) is verified once one is active again; anything else is reported.
      if (enqueueError.code === '23505' || enqueueError.code === 'PT402') {
        outcome.waiting++;
      } else {
        outcome.errors.push(`${rec.id}: ${enqueueError.message}`);
      }
    }
  }
  if (allQueued) {
    await mark(db, rec.id, { verification_queued_at: new Date().toISOString() });
    outcome.queued++;
  }
}

async function mark(
  db: ServiceClient,
  id: string,
  patch: Database['public']['Tables']['ai_security_recommendations']['Update'],
): Promise<void> {
  const { error } = await db
    .from('ai_security_recommendations')
    .update(patch)
    .eq('id', id)
    .eq('status', 'in_progress');
  if (error) {
    throw new Error(`updating recommendation ${id} failed: ${error.message}`);
  }
}
