// The automatic scans (docs/product.md §9.4: every 24 hours) for each initialised scanner (security_tool_configurations
// connected and enabled, with a target). Each period is a slot anchored at the configuration's creation;
// the slot's job carries idempotency_key user+tool+slot start, so any number of schedulers (one per
// worker) enqueue each slot at most once.
import { toolScanner, type ToolType } from '../../supabase/functions/_shared/scanner-tools.ts';
import type { ServiceClient } from '../queue/client.ts';

export const SCAN_PERIOD_MS = 24 * 60 * 60 * 1000;

/** Start of the slot `now` falls in, for a schedule anchored at `anchor`. */
export function slotStart(anchor: Date, now: Date, periodMs = SCAN_PERIOD_MS): Date {
  const elapsed = Math.max(0, now.getTime() - anchor.getTime());
  return new Date(anchor.getTime() + Math.floor(elapsed / periodMs) * periodMs);
}

export const slotKey = (userId: string, tool: string, start: Date) =>
  `scan:${userId}:${tool}:${start.toISOString()}`;

export interface ScheduleOutcome {
  enqueued: number;
  alreadyQueued: number;
  skipped: { userId: string; tool: string; reason: string }[];
}

interface ConfigRow {
  user_id: string;
  tool_type: ToolType;
  settings: { target_id?: unknown; ports?: unknown } | null;
  created_at: string;
}

export async function enqueueDueScans(
  db: ServiceClient,
  now = new Date(),
  periodMs = SCAN_PERIOD_MS,
): Promise<ScheduleOutcome> {
  const outcome: ScheduleOutcome = { enqueued: 0, alreadyQueued: 0, skipped: [] };
  for (let from = 0; ; from += 1000) {
    const { data, error } = await db
      .from('security_tool_configurations')
      .select('user_id, tool_type, settings, created_at')
      .eq('enabled', true)
      .eq('connection_status', 'connected')
      .order('created_at')
      .range(from, from + 999);
    if (error) {
      throw new Error(`reading tool configurations failed: ${error.message}`);
    }
    for (const config of data as ConfigRow[]) {
      await enqueueOne(db, config, now, periodMs, outcome);
    }
    if (data.length < 1000) {
      return outcome;
    }
  }
}

async function enqueueOne(
  db: ServiceClient,
  config: ConfigRow,
  now: Date,
  periodMs: number,
  outcome: ScheduleOutcome,
): Promise<void> {
  const scanner = toolScanner[config.tool_type];
  const targetId = typeof config.settings?.target_id === 'string' ? config.settings.target_id : null;
  // Guard: connectors (cloud, threat intel) run only with the customer's credentials; nothing to scan yet.
  if (!scanner || !targetId) {
    outcome.skipped.push({
      userId: config.user_id,
      tool: config.tool_type,
      reason: scanner ? 'no target chosen' : 'connector needs credentials',
    });
    return;
  }
  const start = slotStart(new Date(config.created_at), now, periodMs);
  // A scan of this tool already started in this slot (a manual one, say) stands for the slot's scan.
  const { data: recent, error: recentError } = await db
    .from('scan_results')
    .select('id')
    .eq('user_id', config.user_id)
    .eq('scan_type', config.tool_type)
    .gte('created_at', start.toISOString())
    .limit(1);
  if (recentError) {
    throw new Error(`reading recent scans failed: ${recentError.message}`);
  }
  if (recent.length) {
    outcome.alreadyQueued++;
    return;
  }
  const ports = typeof config.settings?.ports === 'string' ? config.settings.ports : undefined;
  const { data, error } = await db.rpc('enqueue_scan', {
    p_user: config.user_id,
    p_tool: config.tool_type,
    p_target_id: targetId,
    p_scanner: scanner,
    p_options: ports ? { ports } : {},
    p_idempotency_key: slotKey(config.user_id, config.tool_type, start),
    p_trigger: 'schedule',
  });
  if (error) {
    // A scan of this type already running (23505) or a target no longer verified (42501): skip this tick.
    outcome.skipped.push({
      userId: config.user_id,
      tool: config.tool_type,
      reason: error.code === '23505' ? 'a scan is already running' : error.message,
    });
    return;
  }
  if (data) {
    outcome.enqueued++;
  } else {
    outcome.alreadyQueued++;
  }
}
