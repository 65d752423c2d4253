// The report job (kind 'report'): draws the report of its generated_reports row from the customer's
// data, uploads the PDF, CSV and JSON to the private 'reports' bucket at <user_id>/<report_id>.<ext>,
// and moves the row generating → completed (file_path) or failed (failure_reason). A transient failure
// leaves the row generating while the queue retries; the last attempt's failure is recorded.
import { z } from 'zod';
import type { ServiceClient } from '../queue/client.ts';
import { PermanentJobError, abortReason, type JobContext } from '../worker/job-context.ts';
import { renderCsv, renderJson } from './exports.ts';
import { loadReportData } from './load-data.ts';
import { queueReportReadyMail } from './notify.ts';

export const REPORTS_BUCKET = 'reports';
const Payload = z.object({
  report_id: z.uuid(),
  configuration_id: z.uuid().nullable().optional(),
  trigger: z.string().optional(),
});

export const reportPath = (userId: string, reportId: string, ext: 'pdf' | 'csv' | 'json') =>
  `${userId}/${reportId}.${ext}`;

const CONTENT_TYPES = { pdf: 'application/pdf', csv: 'text/csv', json: 'application/json' } as const;

/**
 * Uploads one file (upsert, so repeating it is harmless). A network failure is retried twice: a
 * keep-alive connection the server closed while the report was rendering fails the first write.
 */
async function upload(db: ServiceClient, path: string, body: Buffer, contentType: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error } = await db.storage.from(REPORTS_BUCKET).upload(path, body, { contentType, upsert: true });
    if (!error) {
      return;
    }
    const cause = (error as { originalError?: { cause?: unknown } }).originalError?.cause;
    // storage-js reports a failed fetch as StorageUnknownError with the network error as originalError.
    const network = (error as { originalError?: unknown }).originalError !== undefined;
    if (!network || attempt >= 3) {
      throw new Error(
        `uploading ${path.split('.').pop()!.toUpperCase()} failed: ${error.message}${cause instanceof Error ? ` (${cause.message})` : ''}`,
      );
    }
  }
}

export async function markFailed(db: ServiceClient, reportId: string, reason: string): Promise<void> {
  const { error } = await db
    .from('generated_reports')
    .update({ status: 'failed', failure_reason: reason.slice(0, 1000) })
    .eq('id', reportId)
    .eq('status', 'generating');
  if (error) {
    throw new Error(`recording the failure of report ${reportId} failed: ${error.message}`);
  }
}

/** Generates one report and stores its files; returns the stored paths and sizes. */
export async function generateReport(db: ServiceClient, reportId: string, signal?: AbortSignal) {
  const { data: row, error } = await db
    .from('generated_reports')
    .select(
      'id, user_id, report_type, status, period_start, period_end, configuration_id, report_configurations(name)',
    )
    .eq('id', reportId)
    .maybeSingle();
  if (error) {
    throw new Error(`reading report ${reportId} failed: ${error.message}`);
  }
  // Guard: a row that is gone or already settled is never regenerated or overwritten.
  if (!row || row.status !== 'generating') {
    throw new PermanentJobError(`report ${reportId} is ${row ? row.status : 'missing'}, not generating`);
  }
  if (!row.period_start || !row.period_end) {
    throw new PermanentJobError(`report ${reportId} has no period`);
  }
  const config = row.report_configurations;
  const data = await loadReportData(db, {
    reportId,
    userId: row.user_id,
    reportType: row.report_type,
    configurationName: config?.name ?? 'Deleted configuration',
    periodStart: new Date(row.period_start),
    periodEnd: new Date(row.period_end),
  });
  // The PDF renderer (pdfkit and its fonts, several MB) loads with the first report, not with the worker.
  const { renderPdf } = await import('./pdf/render.ts');
  const files = { pdf: await renderPdf(data), csv: renderCsv(data), json: renderJson(data) };
  if (signal?.aborted) {
    throw new Error(`report ${reportId} stopped: ${abortReason(signal) ?? 'aborted'}`);
  }
  const sizes: Record<string, number> = {};
  for (const ext of ['csv', 'json', 'pdf'] as const) {
    await upload(db, reportPath(row.user_id, reportId, ext), files[ext], CONTENT_TYPES[ext]);
    sizes[ext] = files[ext].length;
  }
  const filePath = reportPath(row.user_id, reportId, 'pdf');
  const { data: done, error: doneError } = await db
    .from('generated_reports')
    .update({
      status: 'completed',
      file_path: filePath,
      format: 'pdf',
      generated_at: new Date().toISOString(),
      failure_reason: null,
    })
    .eq('id', reportId)
    .eq('status', 'generating')
    .select('id');
  if (doneError) {
    throw new Error(`completing report ${reportId} failed: ${doneError.message}`);
  }
  return {
    userId: row.user_id,
    filePath,
    sizes,
    findings: data.open.length,
    riskScore: data.risk.score,
    completed: done.length > 0,
  };
}

export async function runReportJob(ctx: JobContext) {
  const parsed = Payload.safeParse(ctx.job.payload);
  if (!parsed.success) {
    throw new PermanentJobError(`bad report payload: ${z.prettifyError(parsed.error)}`);
  }
  const reportId = parsed.data.report_id;
  try {
    ctx.setProgress({ phase: 'generating' });
    const result = await generateReport(ctx.db, reportId, ctx.signal);
    if (result.completed) {
      await queueReportReadyMail(ctx.db, result.userId, reportId).catch((e: unknown) =>
        ctx.log(`report-ready e-mail not queued: ${String(e)}`),
      );
    }
    return {
      file_path: result.filePath,
      sizes: result.sizes,
      findings: result.findings,
      risk_score: result.riskScore,
    };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // The last attempt (or a failure that will not change) settles the row; earlier ones leave it to the retry.
    if (e instanceof PermanentJobError || ctx.job.attempts >= ctx.job.max_attempts) {
      await markFailed(ctx.db, reportId, message);
    }
    throw e;
  }
}
