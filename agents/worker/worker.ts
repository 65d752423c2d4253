// The agent worker: claims jobs through claim_jobs (FOR UPDATE SKIP LOCKED, leases), keeps each lease
// alive with a heartbeat that also carries progress and learns of cancellation, and completes or fails
// every job through the queue RPCs. Any number of workers, in any number of processes, share one queue.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Json } from '../../shared/database.types.ts';
import type { ServiceClient } from '../queue/client.ts';
import { Queue, type JobKind, type JobRow } from '../queue/queue.ts';
import { formatDuration } from '../scanners/core/limits.ts';
import { scanStop } from '../scanners/core/scan-stopped.ts';
import type { ScanMode } from '../scanners/target-policy.ts';
import { PermanentJobError, type JobHandler } from './job-context.ts';

export interface WorkerOptions {
  db: ServiceClient;
  mode: ScanMode;
  /** Opens targets' saved logins for authenticated web scans (VIGIL_CREDENTIALS_KEY); none: scans without. */
  credentialsKey?: string;
  handlers: Partial<Record<JobKind, JobHandler>>;
  id?: string;
  /** Jobs run at the same time by this worker. */
  concurrency?: number;
  /** A job whose worker stops heartbeating is claimed again after this long. */
  leaseSeconds?: number;
  /** Heartbeat period; also how fast a cancellation is noticed. */
  heartbeatMs?: number;
  /** Pause between claims when the queue is empty. */
  pollMs?: number;
  /**
   * The longest a job may hold a slot. A job still running then is aborted (reason 'deadline') and, if
   * it has not ended shortly after, failed for good and its slot freed: no job holds a worker forever.
   * Scans end themselves within their own limits well before (scan-process.ts); this is the backstop.
   */
  timeLimitMs?: (job: JobRow) => number;
  log?: (message: string) => void;
}

/** After a job's time limit aborts it, how long it may take to end before its slot is taken back. */
const ABANDON_GRACE_MS = 10_000;

export class Worker {
  readonly id: string;
  readonly queue: Queue;
  private readonly running = new Map<string, Promise<void>>();
  private readonly beats = new Set<NodeJS.Timeout>();
  private readonly aborts = new Set<AbortController>();
  private dead = false;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly options: WorkerOptions) {
    this.id = options.id ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.queue = new Queue(options.db);
  }

  private get kinds(): JobKind[] {
    return Object.keys(this.options.handlers) as JobKind[];
  }

  private log(message: string): void {
    (this.options.log ?? ((m: string) => console.log(m)))(`[worker ${this.id}] ${message}`);
  }

  start(): void {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await Promise.allSettled(this.running.values());
  }

  /**
   * Simulates a crash (tests, and the process exiting without a goodbye): no more claims, heartbeats or
   * writes. Jobs in hand keep their lease until it expires and another worker claims them.
   */
  kill(): void {
    this.stopped = true;
    this.dead = true;
    this.wake?.();
    for (const beat of this.beats) {
      clearInterval(beat);
    }
    for (const abort of this.aborts) {
      abort.abort('lost');
    }
  }

  /** Claims once and runs what it got to the end (tests and one-shot runs). */
  async runOnce(): Promise<number> {
    const jobs = await this.queue.claim(this.id, this.kinds, this.options.concurrency ?? 2, this.lease);
    await Promise.all(jobs.map((job) => this.execute(job)));
    return jobs.length;
  }

  private get lease(): number {
    return this.options.leaseSeconds ?? 30;
  }

  private async run(): Promise<void> {
    const concurrency = this.options.concurrency ?? 2;
    while (!this.stopped) {
      let claimed = 0;
      const free = concurrency - this.running.size;
      if (free > 0) {
        try {
          const jobs = await this.queue.claim(this.id, this.kinds, free, this.lease);
          claimed = jobs.length;
          for (const job of jobs) {
            const done = this.execute(job).finally(() => {
              this.running.delete(job.id);
              this.wake?.();
            });
            this.running.set(job.id, done);
          }
        } catch (error) {
          // Guard: a backend hiccup must not end the loop; the next poll tries again.
          this.log(`claim failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (claimed === 0 || this.running.size >= concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs ?? 1000);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.options.handlers[job.kind as JobKind];
    const abort = new AbortController();
    let progress: Json | undefined;
    const state: { verdict: 'running' | 'cancelled' | 'lost' | 'abandoned' } = { verdict: 'running' };
    const beat = setInterval(() => {
      this.queue
        .heartbeat(job.id, this.id, this.lease, progress)
        .then((v) => {
          state.verdict = v;
          if (v !== 'running' && !abort.signal.aborted) {
            this.log(`${job.kind} ${job.id}: ${v} at a heartbeat, stopping it`);
            abort.abort(v);
          }
        })
        .catch((error: unknown) => this.log(`heartbeat of ${job.id} failed: ${String(error)}`));
    }, this.options.heartbeatMs ?? 1000);
    this.beats.add(beat);
    this.aborts.add(abort);
    const limitMs = this.options.timeLimitMs?.(job) ?? Number.POSITIVE_INFINITY;
    let overtime: NodeJS.Timeout | undefined;
    // Settles (with an error) only when the job ran past its time limit and did not end after the abort.
    const abandoned = new Promise<never>((_, reject) => {
      if (!Number.isFinite(limitMs)) {
        return;
      }
      overtime = setTimeout(() => {
        abort.abort(scanStop('deadline', `the job reached its time limit of ${formatDuration(limitMs)}`));
        overtime = setTimeout(() => {
          state.verdict = 'abandoned';
          reject(new PermanentJobError(`the job ran past its time limit of ${formatDuration(limitMs)}`));
        }, ABANDON_GRACE_MS);
      }, limitMs);
    });
    abandoned.catch(() => undefined);
    try {
      if (!handler) {
        throw new PermanentJobError(`this worker has no handler for ${job.kind} jobs`);
      }
      const run = handler({
        db: this.options.db,
        job,
        mode: this.options.mode,
        ...(this.options.credentialsKey ? { credentialsKey: this.options.credentialsKey } : {}),
        signal: abort.signal,
        setProgress: (p) => {
          progress = p;
        },
        log: (m) => this.log(`${job.kind} ${job.id}: ${m}`),
      });
      const result = await Promise.race([run, abandoned]);
      // Guard: a worker that lost its lease (or was killed) must not overwrite the new holder's work.
      if (state.verdict === 'lost' || this.dead) {
        return;
      }
      await this.queue.complete(job.id, this.id, result ?? null);
    } catch (error) {
      if (state.verdict === 'lost' || this.dead) {
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const outcome = await this.queue.fail(job.id, this.id, message, !(error instanceof PermanentJobError));
      this.log(`${job.kind} ${job.id} failed (${outcome}): ${message}`);
    } finally {
      clearTimeout(overtime);
      clearInterval(beat);
      this.beats.delete(beat);
      this.aborts.delete(abort);
    }
  }
}
