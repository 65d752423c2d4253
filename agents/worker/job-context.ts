// What a job handler gets from the worker, and how it says a failure is not worth retrying.
import type { Json } from '../../shared/database.types.ts';
import type { ScanMode } from '../scanners/target-policy.ts';
import type { JobRow } from '../queue/queue.ts';
import type { ServiceClient } from '../queue/client.ts';

export interface JobContext {
  db: ServiceClient;
  job: JobRow;
  mode: ScanMode;
  /** Opens targets' saved logins (shared/sealed-login.ts); absent when this worker was given none. */
  credentialsKey?: string;
  /**
   * Aborted when the job is cancelled (reason 'cancelled'), the worker lost it (reason 'lost'), or it ran
   * past the worker's time limit for it (a ScanStop with reason 'deadline').
   */
  signal: AbortSignal;
  /** Progress the next heartbeat records on the job row. */
  setProgress(progress: Json): void;
  log(message: string): void;
}

export type JobHandler = (ctx: JobContext) => Promise<Json | undefined>;

/** A failure that will fail the same way on every attempt (bad payload, unverified target): dead-letter at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** Why the job's signal was aborted, if it was. */
export function abortReason(signal: AbortSignal): 'cancelled' | 'lost' | 'deadline' | null {
  if (!signal.aborted) {
    return null;
  }
  const reason: unknown = signal.reason;
  if (reason === 'cancelled' || reason === 'lost') {
    return reason;
  }
  return 'deadline';
}
