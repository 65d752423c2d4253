// The job queue as the agents see it: thin, typed calls of the queue RPCs (supabase/migrations/
// 20261122100001_agent_queue_rpc.sql). All the concurrency safety lives in those functions.
import type { Json, Database } from '../../shared/database.types.ts';
import type { ServiceClient } from './client.ts';

export type JobRow = Database['public']['Tables']['jobs']['Row'];
export type JobKind = 'scan' | 'verify' | 'analysis' | 'report';
/** What a worker must do after a heartbeat: carry on, stop keeping results, or stop silently. */
export type HeartbeatVerdict = 'running' | 'cancelled' | 'lost';

export class QueueError extends Error {
  readonly code: string | undefined;
  constructor(operation: string, cause: { message: string; code?: string }) {
    super(`${operation} failed: ${cause.message}`);
    this.code = cause.code;
    this.name = 'QueueError';
  }
}

export class Queue {
  constructor(private readonly db: ServiceClient) {}

  async claim(
    workerId: string,
    kinds: readonly JobKind[],
    n: number,
    leaseSeconds: number,
  ): Promise<JobRow[]> {
    const { data, error } = await this.db.rpc('claim_jobs', {
      p_worker: workerId,
      p_kinds: [...kinds],
      p_n: n,
      p_lease_seconds: leaseSeconds,
    });
    if (error) {
      throw new QueueError('claim_jobs', error);
    }
    return data;
  }

  async heartbeat(
    jobId: string,
    workerId: string,
    leaseSeconds: number,
    progress?: Json,
  ): Promise<HeartbeatVerdict> {
    const { data, error } = await this.db.rpc('heartbeat_job', {
      p_job: jobId,
      p_worker: workerId,
      p_lease_seconds: leaseSeconds,
      ...(progress === undefined ? {} : { p_progress: progress }),
    });
    if (error) {
      throw new QueueError('heartbeat_job', error);
    }
    return data as HeartbeatVerdict;
  }

  async complete(jobId: string, workerId: string, result?: Json): Promise<boolean> {
    const { data, error } = await this.db.rpc('complete_job', {
      p_job: jobId,
      p_worker: workerId,
      ...(result === undefined ? {} : { p_result: result }),
    });
    if (error) {
      throw new QueueError('complete_job', error);
    }
    return data;
  }

  /** Records a failure; returns 'queued' (retry after back-off), 'dead' or 'lost'. */
  async fail(jobId: string, workerId: string, message: string, retryable = true): Promise<string> {
    const { data, error } = await this.db.rpc('fail_job', {
      p_job: jobId,
      p_worker: workerId,
      p_error: message,
      p_retryable: retryable,
    });
    if (error) {
      throw new QueueError('fail_job', error);
    }
    return data;
  }

  /** Cancels a job; returns the status it had ('queued', 'running', … or 'missing'). */
  async cancel(jobId: string): Promise<string> {
    const { data, error } = await this.db.rpc('cancel_job', { p_job: jobId });
    if (error) {
      throw new QueueError('cancel_job', error);
    }
    return data;
  }

  /** Enqueues a non-scan job (scans go through enqueue_scan, which also creates their scan_results row). */
  async enqueue(job: {
    kind: JobKind;
    userId: string | null;
    payload: Json;
    priority?: number;
    maxAttempts?: number;
    idempotencyKey?: string;
  }): Promise<string | null> {
    const { data, error } = await this.db
      .from('jobs')
      .upsert(
        {
          kind: job.kind,
          user_id: job.userId,
          payload: job.payload,
          priority: job.priority ?? 0,
          max_attempts: job.maxAttempts ?? 3,
          idempotency_key: job.idempotencyKey ?? null,
        },
        { onConflict: 'idempotency_key', ignoreDuplicates: true },
      )
      .select('id')
      .maybeSingle();
    if (error) {
      throw new QueueError('enqueue', error);
    }
    return data?.id ?? null;
  }
}
