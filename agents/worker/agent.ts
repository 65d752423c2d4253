// One agent process: the job worker plus the periodic duties every worker shares safely (the 24-hour
// scan scheduler, idempotent per slot; verification rescans, idempotent per request; the notification
// outbox, claimed per row).
import type { ServiceClient } from '../queue/client.ts';
import { deliverDue, type MailTransport } from '../notify/deliver.ts';
import { runReportJob } from '../reports/generate.ts';
import { enqueueDueReports } from '../reports/scheduler.ts';
import { enqueueDueScans } from '../scheduler/scheduler.ts';
import { enqueueVerificationScans } from '../pipeline/verification.ts';
import type { ScanMode } from '../scanners/target-policy.ts';
import type { JobRow } from '../queue/queue.ts';
import { scanLimits } from '../scanners/core/limits.ts';
import { configuredScanLimits } from '../scanners/core/settings.ts';
import { runScanJob, ScanPayload } from './scan-job.ts';
import { runVerifyJob } from './verify-job.ts';
import { Worker, type WorkerOptions } from './worker.ts';

export interface AgentOptions extends Partial<Omit<WorkerOptions, 'db' | 'mode' | 'handlers'>> {
  db: ServiceClient;
  mode: ScanMode;
  mail?: MailTransport;
  /** How often the scheduler and the notifier run. */
  dutyMs?: number;
}

export interface Agent {
  worker: Worker;
  stop(): Promise<void>;
}

export function startAgent(options: AgentOptions): Agent {
  const log = options.log ?? ((m: string) => console.log(m));
  const worker = new Worker({
    timeLimitMs: jobTimeLimit,
    ...options,
    handlers: { scan: runScanJob, verify: runVerifyJob, report: runReportJob },
  });
  worker.start();
  let busy = false;
  const duties = async () => {
    // Guard: a slow tick must not overlap the next one.
    if (busy) {
      return;
    }
    busy = true;
    try {
      const reports = await enqueueDueReports(options.db);
      if (reports.enqueued || reports.errors.length) {
        log(
          `[scheduler] enqueued ${reports.enqueued} scheduled report(s)${reports.errors.length ? `; errors: ${reports.errors.join('; ')}` : ''}`,
        );
      }
      const scheduled = await enqueueDueScans(options.db);
      if (scheduled.enqueued) {
        log(`[scheduler] enqueued ${scheduled.enqueued} automatic scan(s)`);
      }
      const verifying = await enqueueVerificationScans(options.db);
      if (verifying.queued || verifying.errors.length) {
        log(
          `[remediation] queued ${verifying.queued} verification scan(s)${verifying.errors.length ? `; errors: ${verifying.errors.join('; ')}` : ''}`,
        );
      }
      await deliverDue(options.db, { mode: options.mode, ...(options.mail ? { mail: options.mail } : {}) });
    } catch (e) {
      log(`[agent] periodic duties failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void duties(), options.dutyMs ?? 60_000);
  void duties();
  return {
    worker,
    async stop() {
      clearInterval(timer);
      await worker.stop();
    },
  };
}

const minute = 60_000;

/**
 * How long a job may hold a worker slot: a scan its own time limit and a minute to write its findings;
 * a report or a verification a few minutes. The worker's backstop; the work stops itself well before.
 */
export function jobTimeLimit(job: JobRow): number {
  if (job.kind === 'scan') {
    const payload = ScanPayload.safeParse(job.payload);
    const type = payload.success ? payload.data.scanner : 'infrastructure';
    return scanLimits(type, configuredScanLimits()).timeMs + minute;
  }
  return job.kind === 'report' ? 10 * minute : 5 * minute;
}
