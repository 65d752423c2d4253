// The monitoring-metrics queue (docs/product.md §9): metrics are sent in batches when 10 are queued or 5 s after
// the first one, and once more when the page goes away; a batch that fails goes back to the queue.
import type { Json } from '../../../../../shared/database.types.ts';

export type MetricMetadata = { [key: string]: Json | undefined };
export interface Metric {
  user_id: string;
  metric_name: string;
  value: number;
  metadata: MetricMetadata;
  timestamp: string;
}

export interface FlushOptions {
  /** The page is going away: the request must outlive it (fetch keepalive). */
  unloading: boolean;
}

export type SendBatch = (batch: Metric[], options: FlushOptions) => Promise<void>;

export interface QueueOptions {
  send: SendBatch;
  batchSize?: number;
  flushDelayMs?: number;
  /** Queued items kept while the backend is unreachable; the oldest are dropped beyond it. */
  maxQueued?: number;
}

export const METRICS_BATCH_SIZE = 10;
export const METRICS_FLUSH_DELAY_MS = 5_000;

export class MetricsQueue {
  private items: Metric[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly send: SendBatch;
  private readonly batchSize: number;
  private readonly flushDelayMs: number;
  private readonly maxQueued: number;

  constructor({
    send,
    batchSize = METRICS_BATCH_SIZE,
    flushDelayMs = METRICS_FLUSH_DELAY_MS,
    maxQueued = 500,
  }: QueueOptions) {
    this.send = send;
    this.batchSize = batchSize;
    this.flushDelayMs = flushDelayMs;
    this.maxQueued = maxQueued;
  }

  get size(): number {
    return this.items.length;
  }

  add(metric: Metric): void {
    this.enqueue([metric], 'end');
    if (this.items.length >= this.batchSize) {
      void this.flush();
    } else {
      this.schedule();
    }
  }

  /** Sends everything queued now (in batches of batchSize); failed batches are queued again. */
  async flush(options: FlushOptions = { unloading: false }): Promise<void> {
    this.cancelTimer();
    const taken = this.items;
    this.items = [];
    const batches: Metric[][] = [];
    for (let i = 0; i < taken.length; i += this.batchSize) {
      batches.push(taken.slice(i, i + this.batchSize));
    }
    const failed: Metric[] = [];
    await Promise.all(
      batches.map((batch) =>
        this.send(batch, options).catch(() => {
          // Offline or a refused request: keep the metrics for the next flush instead of losing them.
          failed.push(...batch);
        }),
      ),
    );
    if (failed.length > 0) {
      this.enqueue(failed, 'start');
      if (!options.unloading) {
        this.schedule();
      }
    }
  }

  /** Drops what is queued (e.g. on sign-out: these rows belong to the previous user). */
  clear(): void {
    this.cancelTimer();
    this.items = [];
  }

  private enqueue(metrics: Metric[], where: 'start' | 'end'): void {
    this.items = where === 'start' ? [...metrics, ...this.items] : [...this.items, ...metrics];
    if (this.items.length > this.maxQueued) {
      this.items = this.items.slice(this.items.length - this.maxQueued);
    }
  }

  private schedule(): void {
    if (this.timer === undefined && this.items.length > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.flushDelayMs);
    }
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
