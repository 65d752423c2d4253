// A scan job: load the customer's target (refusing unverified ones), run the scanner in its own process
// within the target's rate limit and the scan's time and memory limits, with the job's abort signal and
// honest progress (phase, percent, requests/s, ETA) written to scan_results.progress, then hand the
// findings to the pipeline. A cancel ends the scan keeping what it found (status stopped); a scan cut short
// by its limits, a failed phase or a crash completes as partial, saying why.
import { z } from 'zod';
import { findingSchema } from '../../shared/findings.ts';
import type { Json } from '../../shared/database.types.ts';
import { processScan } from '../pipeline/process-scan.ts';
import type { ScanProgress } from '../scanners/core/progress.ts';
import { configuredScanLimits } from '../scanners/core/settings.ts';
import { runIsolatedScan } from '../scanners/isolation/scan-process.ts';
import { TargetRefusedError } from '../scanners/target-policy.ts';
import { targetLogin } from '../targets/login.ts';
import { ScanTargetRow, scannerTarget, scanRateLimit, TargetError } from '../targets/target.ts';
import { abortReason, PermanentJobError, type JobContext } from './job-context.ts';

export const ScanPayload = z.object({
  scan_result_id: z.uuid(),
  target_id: z.uuid(),
  tool_type: z.string(),
  scanner: z.enum(['webapp', 'infrastructure', 'api']),
  options: z
    .object({
      ports: z
        .string()
        .regex(/^[0-9,\s-]{1,2000}$/)
        .optional(),
    })
    .loose()
    .default({}),
  /** The target's consent to intrusive checks when the scan was queued (absent in older jobs: none). */
  allow_intrusive: z.boolean().optional(),
});

/** How often progress is written to the scan row (the UI polls every 5 s and listens live). */
const PROGRESS_WRITE_MS = 1000;

export async function runScanJob(ctx: JobContext): Promise<Json> {
  const parsed = ScanPayload.safeParse(ctx.job.payload);
  if (!parsed.success) {
    throw new PermanentJobError(`bad scan payload: ${z.prettifyError(parsed.error)}`);
  }
  const payload = parsed.data;
  const scanRow = ctx.db.from('scan_results');
  const failScan = async (message: string) => {
    await scanRow
      .update({
        status: 'failed',
        end_time: new Date().toISOString(),
        error_message: message,
        progress: { phase: 'failed' },
      })
      .eq('id', payload.scan_result_id);
    return new PermanentJobError(message);
  };
  const { data: row, error } = await ctx.db
    .from('scan_targets')
    .select('*')
    .eq('id', payload.target_id)
    .maybeSingle();
  if (error) {
    throw new Error(`reading the target failed: ${error.message}`);
  }
  if (!row || row.user_id !== ctx.job.user_id) {
    throw await failScan('The scan target no longer exists.');
  }
  const target = ScanTargetRow.parse(row);
  // Guard: only targets proven to belong to the customer are ever scanned.
  if (!target.verified_at) {
    throw await failScan('The scan target is not verified. Prove ownership before scanning it.');
  }
  let pointAt: { target: string; openapi?: string };
  try {
    pointAt = scannerTarget(target, payload.scanner);
  } catch (e) {
    throw await failScan(e instanceof TargetError ? e.message : String(e));
  }

  // Guard: intrusive checks need the owner's consent when the scan was queued and still now; consent
  // withdrawn in between wins, and a job from before consent was recorded has none.
  const allowIntrusive = payload.allow_intrusive === true && target.allow_intrusive;

  // Authenticated web scans: the target's saved login, opened with this worker's key.
  const saved = payload.scanner === 'webapp' ? await targetLogin(ctx.db, target, ctx.credentialsKey) : null;

  let latest: (ScanProgress & { attempt: number }) | null = null;
  let written: unknown = null;
  const flush = async () => {
    if (latest && latest !== written && !ctx.signal.aborted) {
      written = latest;
      ctx.setProgress(latest as unknown as Json);
      // Progress only: a scan the customer stopped keeps its status while the scanner winds down.
      await scanRow
        .update({ progress: latest as unknown as Json })
        .eq('id', payload.scan_result_id)
        .eq('status', 'in_progress');
    }
  };
  let inflight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    inflight = flush().catch((e: unknown) => ctx.log(`progress write failed: ${String(e)}`));
  }, PROGRESS_WRITE_MS);
  let result;
  try {
    await scanRow
      .update({
        status: 'in_progress',
        progress: { phase: 'starting', percent: 0, attempt: ctx.job.attempts },
      })
      .eq('id', payload.scan_result_id)
      .in('status', ['queued', 'in_progress']);
    // In a process of its own, within the scan's time and memory limits: a hostile target can end
    // this scan, never the worker or the other jobs it runs.
    result = await runIsolatedScan(payload.scanner, {
      target: pointAt.target,
      ...(pointAt.openapi ? { openapi: pointAt.openapi } : {}),
      ...(payload.options.ports ? { ports: payload.options.ports } : {}),
      ...(saved && 'login' in saved ? { login: saved.login } : {}),
      allowIntrusive,
      mode: ctx.mode,
      // The target's request rate, shared among the scans of it that may run at once.
      rateLimit: scanRateLimit(target),
      limits: configuredScanLimits(),
      signal: ctx.signal,
      onProgress: (p) => {
        latest = { ...p, attempt: ctx.job.attempts };
      },
      onLog: (line) => ctx.log(line),
    });
  } catch (e) {
    if (e instanceof TargetRefusedError) {
      throw await failScan(`This target cannot be scanned: ${e.reason}`);
    }
    throw e;
  } finally {
    clearInterval(timer);
    // Guard: a progress write still in flight must not land after (and undo) the final status.
    await inflight;
  }
  const reason = abortReason(ctx.signal);
  // Guard: a worker that lost the job writes nothing; the holder of the new lease owns the scan now.
  if (reason === 'lost') {
    return null;
  }
  const findings = z.array(findingSchema).parse(result.findings);
  const outcome = await processScan(ctx.db, {
    userId: target.user_id,
    scanId: payload.scan_result_id,
    targetId: target.id,
    scanner: payload.scanner,
    findings,
    stats: result.stats,
    ...(result.crawl
      ? { crawl: saved && 'failed' in saved ? { ...result.crawl, login: saved.failed } : result.crawl }
      : {}),
    ...(result.places ? { places: result.places } : {}),
    ...(result.categories ? { categories: result.categories } : {}),
    partial: result.partial || reason === 'cancelled',
    ...(result.stopped ? { stopped: result.stopped } : {}),
    phaseErrors: result.phase_errors,
    resources: result.resources,
    finalStatus: reason === 'cancelled' ? 'stopped' : 'completed',
  });
  return {
    findings: findings.length,
    new: outcome.new.length,
    fixed: outcome.fixed.length,
    stopped: reason === 'cancelled',
    partial: result.partial,
    ...(result.stopped ? { stop_reason: result.stopped.reason } : {}),
  };
}
