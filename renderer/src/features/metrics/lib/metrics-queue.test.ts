import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { type Metric, MetricsQueue, type SendBatch } from './metrics-queue.ts';

const metric = (n: number, user_id = 'u1'): Metric => ({
  user_id,
  metric_name: `m${n}`,
  value: n,
  metadata: {},
  timestamp: new Date(n).toISOString(),
});

describe('MetricsQueue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends at 10 queued items without waiting for the timer', async () => {
    const send = vi.fn<SendBatch>().mockResolvedValue(undefined);
    const queue = new MetricsQueue({ send });
    for (let i = 0; i < 9; i += 1) {
      queue.add(metric(i));
    }
    expect(send).not.toHaveBeenCalled();
    queue.add(metric(9));
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0].map((m) => m.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(queue.size).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends a partial batch 5 s after the first item, not before', async () => {
    const send = vi.fn<SendBatch>().mockResolvedValue(undefined);
    const queue = new MetricsQueue({ send });
    queue.add(metric(1));
    await vi.advanceTimersByTimeAsync(3_000);
    queue.add(metric(2));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0]).toHaveLength(2);
    expect(send.mock.calls[0]?.[1]).toEqual({ unloading: false });
  });

  it('re-queues a failed batch in order and retries it on the next timer', async () => {
    const send = vi.fn<SendBatch>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    const queue = new MetricsQueue({ send });
    queue.add(metric(1));
    queue.add(metric(2));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(queue.size).toBe(2);
    queue.add(metric(3));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]?.[0].map((m) => m.value)).toEqual([1, 2, 3]);
    expect(queue.size).toBe(0);
  });

  it('flushes everything on unload in batches of 10, marked as unloading, without rescheduling failures', async () => {
    const send = vi
      .fn<SendBatch>()
      .mockImplementation((batch) =>
        batch[0]?.value === 0 ? Promise.resolve() : Promise.reject(new Error('x')),
      );
    const queue = new MetricsQueue({ send, batchSize: 10, flushDelayMs: 5_000 });
    // Added as a burst: the first 10 go at once, so queue 5 more and flush on unload.
    for (let i = 0; i < 15; i += 1) {
      queue.add(metric(i));
    }
    await queue.flush({ unloading: true });
    const unloadCalls = send.mock.calls.filter(([, options]) => options.unloading);
    expect(unloadCalls.map(([batch]) => batch.length)).toEqual([5]);
    expect(queue.size).toBe(5);
    await vi.advanceTimersByTimeAsync(60_000);
    // A failure during unload does not start a timer: the page is going away.
    expect(send.mock.calls.filter(([, options]) => options.unloading)).toHaveLength(1);
  });

  it('caps the queue while the backend is unreachable and clears on sign-out', async () => {
    const send = vi.fn<SendBatch>().mockRejectedValue(new Error('offline'));
    const queue = new MetricsQueue({ send, maxQueued: 25 });
    for (let i = 0; i < 40; i += 1) {
      queue.add(metric(i));
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.size).toBeLessThanOrEqual(25);
    queue.clear();
    expect(queue.size).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    const calls = send.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send.mock.calls.length).toBe(calls);
  });
});
