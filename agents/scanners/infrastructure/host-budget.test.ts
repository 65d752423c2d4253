import { describe, expect, it } from 'vitest';

import { HostBudget } from './host-budget.ts';
import { mayConnect, withConnectionMeter } from './connection-meter.ts';

describe('host budget', () => {
  it('ends, with its reason, once its connections are spent, and so does every conversation under its meter', async () => {
    const budget = new HostBudget({ connections: 3, durationMs: 60_000 });
    const allowed = await withConnectionMeter(
      () => budget.take(),
      async () => {
        await Promise.resolve();
        return [mayConnect(), mayConnect(), mayConnect(), mayConnect(), mayConnect()];
      },
    );
    expect(allowed).toEqual([true, true, true, false, false]);
    expect(budget.signal.aborted).toBe(true);
    expect(budget.reason).toBe('the per-host budget of 3 connections ran out');
    expect(mayConnect()).toBe(true); // outside any host's work, nothing is metered
    budget.dispose();
  });

  it('ends at its time limit, and with the scan', async () => {
    const budget = new HostBudget({ connections: 100, durationMs: 50 });
    await new Promise((resolve) => budget.signal.addEventListener('abort', resolve));
    expect(budget.reason).toBe('the per-host time budget of 0 s ran out');
    const scan = new AbortController();
    const other = new HostBudget({ connections: 100, durationMs: 60_000 }, scan.signal);
    scan.abort();
    expect(other.signal.aborted).toBe(true);
    expect(other.reason).toBeNull();
    other.dispose();
  });
});
