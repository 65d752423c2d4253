import { describe, expect, it } from 'vitest';

import { PhaseRunner } from './phases.ts';
import { ProgressTracker } from './progress.ts';
import { ScanStoppedError, scanStop } from './scan-stopped.ts';

const tracker = () => new ProgressTracker(undefined, () => 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PhaseRunner', () => {
  it('records a failing phase and goes on with the next ones', async () => {
    const phases = new PhaseRunner(tracker());
    const ran: string[] = [];
    await phases.run('first', 10, () => Promise.resolve(void ran.push('first')));
    await phases.run('broken', 10, () =>
      Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')")),
    );
    await phases.run('last', 10, () => Promise.resolve(void ran.push('last')));
    expect(ran).toEqual(['first', 'last']);
    expect(phases.outcome()).toEqual({
      partial: true,
      phase_errors: [
        { phase: 'broken', error: "TypeError: Cannot read properties of undefined (reading 'x')" },
      ],
    });
  });

  it('ends a phase at its own time limit, says so, and runs the next', async () => {
    const phases = new PhaseRunner(tracker(), undefined, { phaseMs: 100 });
    let next = false;
    await phases.run('slow', 10, (_tick, signal) => {
      // Heeds its signal, as every wait in a phase must.
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new ScanStoppedError('aborted'))),
      );
    });
    await phases.run('next', 10, () => Promise.resolve(void (next = true)));
    expect(next).toBe(true);
    const outcome = phases.outcome();
    expect(outcome.partial).toBe(true);
    expect(outcome.stopped).toBeUndefined();
    expect(outcome.phase_errors).toEqual([
      { phase: 'slow', error: 'phase "slow" reached its time limit of 100 ms' },
    ]);
  });

  it('moves on from a phase that ignores its signal once the wind-down time has passed', async () => {
    const phases = new PhaseRunner(tracker(), undefined, { phaseMs: 50 });
    let settled = false;
    const deaf = sleep(60_000).then(() => {
      settled = true;
    });
    const before = performance.now();
    await phases.run('deaf', 10, () => deaf);
    // The phase's limit plus the wind-down (2 s), not the minute the work would take.
    expect(performance.now() - before).toBeLessThan(30_000);
    expect(settled).toBe(false);
    expect(phases.outcome().phase_errors.map((e) => e.phase)).toEqual(['deaf']);
  });

  it('stops the scan when its signal aborts, keeping the reason, and runs no further phase', async () => {
    const controller = new AbortController();
    const phases = new PhaseRunner(tracker(), controller.signal, { phaseMs: 60_000 });
    let later = false;
    await phases.run('running', 10, (_tick, signal) => {
      controller.abort(scanStop('deadline', 'the scan reached its time limit of 20 min'));
      return signal.aborted ? Promise.reject(new ScanStoppedError('aborted')) : Promise.resolve();
    });
    await phases.run('later', 10, () => Promise.resolve(void (later = true)));
    expect(later).toBe(false);
    expect(phases.outcome()).toEqual({
      partial: true,
      stopped: { reason: 'deadline', detail: 'the scan reached its time limit of 20 min' },
      phase_errors: [],
    });
  });

  it('reads a plain abort as a cancel and a used-up request budget as budget', async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    const first = new PhaseRunner(tracker(), cancelled.signal);
    await first.run('never', 10, () => Promise.resolve());
    expect(first.outcome().stopped?.reason).toBe('cancelled');

    const second = new PhaseRunner(tracker());
    await second.run('requests', 10, () => Promise.reject(new ScanStoppedError('budget')));
    await second.run('after', 10, () => Promise.reject(new Error('must not run')));
    expect(second.outcome()).toEqual({
      partial: true,
      stopped: { reason: 'budget', detail: 'the scan used up its request budget' },
      phase_errors: [],
    });
  });

  it('makes a phase error inert text of bounded length', async () => {
    const phases = new PhaseRunner(tracker());
    await phases.run('parse', 10, () => Promise.reject(new Error(`bad banner \u001b[2J${'x'.repeat(1000)}`)));
    const [failure] = phases.outcome().phase_errors;
    expect(failure?.error.startsWith('Error: bad banner \\x1b[2J')).toBe(true);
    expect(failure?.error.length).toBeLessThanOrEqual(300);
  });
});
