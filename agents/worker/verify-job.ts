// A target-verification job: fetch the token from the target (or its DNS TXT record) and record the
// outcome on scan_targets. The answer is the job's result, which the edge function waits for.
import { z } from 'zod';
import type { Json } from '../../shared/database.types.ts';
import { ScanTargetRow } from '../targets/target.ts';
import { verifyTarget } from '../targets/verify.ts';
import { PermanentJobError, type JobContext } from './job-context.ts';

const VerifyPayload = z.object({ target_id: z.uuid() });

export async function runVerifyJob(ctx: JobContext): Promise<Json> {
  const parsed = VerifyPayload.safeParse(ctx.job.payload);
  if (!parsed.success) {
    throw new PermanentJobError('bad verify payload');
  }
  const { data: row, error } = await ctx.db
    .from('scan_targets')
    .select('*')
    .eq('id', parsed.data.target_id)
    .maybeSingle();
  if (error) {
    throw new Error(`reading the target failed: ${error.message}`);
  }
  // Guard: a job can only verify a target of the customer it was queued for.
  if (!row || row.user_id !== ctx.job.user_id) {
    throw new PermanentJobError('The target no longer exists.');
  }
  const target = ScanTargetRow.parse(row);
  const outcome = await verifyTarget(target, { mode: ctx.mode, signal: ctx.signal });
  const update = outcome.verified
    ? { verified_at: new Date().toISOString(), verification_method: outcome.method, verification_error: null }
    : { verification_error: outcome.reason.slice(0, 1000) };
  const { error: writeError } = await ctx.db.from('scan_targets').update(update).eq('id', target.id);
  if (writeError) {
    throw new Error(`recording verification failed: ${writeError.message}`);
  }
  return outcome;
}
