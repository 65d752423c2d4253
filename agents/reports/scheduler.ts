// The report scheduler, run by every agent on its periodic tick: for each enabled configuration whose
// next run has come (or is not yet computed), enqueue the due slot's report through enqueue_report with
// the key report:<configuration>:<slot> (so concurrent schedulers produce one period once), then record
// last_run_at and the next run.
import type { ServiceClient } from '../queue/client.ts';
import { planSchedule, slotKey } from './schedule.ts';

export interface ReportScheduleOutcome {
  enqueued: number;
  alreadyEnqueued: number;
  /** Due slots passed over because the customer has no active or trialing agent (reports are paid). */
  withoutAgent: number;
  errors: string[];
}

const PAGE = 500;

export async function enqueueDueReports(db: ServiceClient, now = new Date()): Promise<ReportScheduleOutcome> {
  const outcome: ReportScheduleOutcome = { enqueued: 0, alreadyEnqueued: 0, withoutAgent: 0, errors: [] };
  const { data, error } = await db
    .from('report_configurations')
    .select('id, schedule_type, time_zone, created_at, last_run_at, next_run_at')
    .eq('is_enabled', true)
    .or(
      `next_run_at.lte.${now.toISOString()},and(next_run_at.is.null,or(schedule_type.neq.one_time,last_run_at.is.null))`,
    )
    .order('next_run_at', { ascending: true, nullsFirst: true })
    .limit(PAGE);
  if (error) {
    throw new Error(`reading report configurations failed: ${error.message}`);
  }
  for (const config of data) {
    const plan = planSchedule({ ...config, schedule_type: config.schedule_type }, now);
    if (plan.due) {
      const { data: reportId, error: enqueueError } = await db.rpc('enqueue_report', {
        p_configuration: config.id,
        p_period_start: plan.due.periodStart.toISOString(),
        p_period_end: plan.due.periodEnd.toISOString(),
        p_trigger: 'schedule',
        p_key: slotKey(config.id, plan.due.at),
      });
      if (enqueueError?.code === 'PT402') {
        // No agent (trial over, subscription ended): this period has no report; the schedule moves on.
        outcome.withoutAgent++;
      } else if (enqueueError) {
        // Guard: one broken configuration must not stop the others' reports.
        outcome.errors.push(`${config.id}: ${enqueueError.message}`);
        continue;
      } else if (reportId) {
        outcome.enqueued++;
      } else {
        outcome.alreadyEnqueued++;
      }
    }
    const update: { next_run_at: string | null; last_run_at?: string } = {
      next_run_at: plan.next?.toISOString() ?? null,
    };
    if (plan.due) {
      update.last_run_at = plan.due.at.toISOString();
    }
    // A one-time configuration that has run keeps next_run_at null; its last_run_at keeps it out of the query.
    const { error: updateError } = await db.from('report_configurations').update(update).eq('id', config.id);
    if (updateError) {
      outcome.errors.push(`${config.id}: ${updateError.message}`);
    }
  }
  return outcome;
}
