import { describe, expect, it } from 'vitest';

import { delayEvidence } from './delay.ts';
import type { DelayPayload, TimedProbe } from './delay.ts';

/** Two payloads, "a" and "b": a value "a:4" asks the server to wait 4 s through payload a. */
const payloads: DelayPayload[] = ['a', 'b'].map((label) => ({
  label,
  build: (_probe, seconds) => `${label}:${seconds}`,
}));

/**
 * A parameter whose answer times come from `answer(value, n)` (n counts the requests of that value so
 * far): the original value is "x"; timingOnce takes three answers of it, as the real probe does.
 */
function fakeProbe(answer: (value: string, n: number, alone: boolean) => number | null): TimedProbe {
  const seen = new Map<string, number>();
  const time = (value: string, _timeoutMs: number, alone: boolean) => {
    const n = seen.get(value) ?? 0;
    seen.set(value, n + 1);
    return Promise.resolve(answer(value, n, alone));
  };
  return {
    param: 'q',
    original: 'x',
    numeric: '1',
    time,
    timingOnce: async (timeoutMs: number) => {
      const times = [
        await time('x', timeoutMs, false),
        await time('x', timeoutMs, false),
        await time('x', timeoutMs, false),
      ];
      return times.every((t): t is number => t !== null)
        ? { min: Math.min(...times), max: Math.max(...times) }
        : null;
    },
  };
}

/** Waits the seconds payload `label` carries, on top of `base` ms; the other payload does nothing. */
const sleepsThrough =
  (label: string, base = 100) =>
  (value: string) => {
    const [which, seconds] = value.split(':');
    return which === label ? base + Number(seconds) * 1000 : base;
  };

describe('the time-based confirmation', () => {
  it('proves a delay that shows up in full, vanishes at zero, doubles and repeats', async () => {
    const verdict = await delayEvidence(fakeProbe(sleepsThrough('b')), payloads);
    expect(verdict).toEqual({
      evidence: expect.stringMatching(
        /^b: a 2 s delay answered in 2,100 ms and 2,100 ms, 4 s in 4,100 ms/,
      ) as unknown,
    });
  });

  it('calls a page that never waits clean, and a page that is always slow clean', async () => {
    expect(
      await delayEvidence(
        fakeProbe(() => 120),
        payloads,
      ),
    ).toBeNull();
    expect(
      await delayEvidence(
        fakeProbe(() => 1200),
        payloads,
      ),
    ).toBeNull();
  });

  it('does not call an injection clean when its baseline was taken at a busy moment: it times the page alone', async () => {
    // The three shared answers of the original value all came at a stall (1.5–1.8 s); alone it takes
    // 100 ms, and b's 2 s delay (2.1 s) is short of the stalled baseline's bar.
    const shared = [1500, 1800, 1600];
    const answer = (value: string, n: number, alone: boolean) =>
      value === 'x' && !alone ? shared[n]! : sleepsThrough('b')(value);
    expect(await delayEvidence(fakeProbe(answer), payloads)).toHaveProperty('evidence');
  });

  it('calls a page that always takes longer than the delay clean after timing it alone', async () => {
    const values: string[] = [];
    const answer = (value: string, _n: number, alone: boolean) => {
      values.push(`${value}${alone ? ' alone' : ''}`);
      return 2500;
    };
    expect(await delayEvidence(fakeProbe(answer), payloads)).toBeNull();
    expect(values.filter((v) => v === 'x alone')).toHaveLength(3);
  });

  it('does not call an injection clean when a busy host spoils a sequence: it runs it once more', async () => {
    // The first zero delay comes back slow (a stall); the second sequence holds.
    const answer = (value: string, n: number) =>
      value === 'b:0' && n === 0 ? 3000 : sleepsThrough('b')(value);
    expect(await delayEvidence(fakeProbe(answer), payloads)).toHaveProperty('evidence');
  });

  it('reports a parameter it could not time as untimed, not clean, when both sequences are spoilt', async () => {
    const stalls = (value: string) => (value === 'b:0' ? 3000 : sleepsThrough('b')(value));
    expect(await delayEvidence(fakeProbe(stalls), payloads)).toEqual({
      untimed: 'b: no delay answered in 3,000 ms, after a 2 s delay in 2,100 ms',
    });
    // A 2D out of proportion with D (D answered 3.5 s late, 2D on time).
    const noisy = (value: string) => (value === 'b:2' ? 3600 : sleepsThrough('b')(value));
    expect(await delayEvidence(fakeProbe(noisy), payloads)).toEqual({
      untimed: 'b: a 2 s delay answered in 3,600 ms but 4 s in 4,100 ms',
    });
    // A delay that goes unanswered.
    const hangs = (value: string) => (value === 'b:4' ? null : sleepsThrough('b')(value));
    expect(await delayEvidence(fakeProbe(hangs), payloads)).toEqual({
      untimed: expect.stringMatching(/^b: a 4 s delay went unanswered within [\d,]+ ms$/) as unknown,
    });
  });

  it('calls a delay the app cuts short (its own subprocess timeout) unsteady, and a fresh try with the smallest delay proves it', async () => {
    // Among other requests the page spreads 0.1–1.6 s (D = 5 s); the app kills its command after 9 s,
    // so 2D comes back at 9 s.
    const capped = (value: string, n: number, alone: boolean) => {
      if (value === 'x') {
        return alone ? 100 : [100, 1600, 600][n % 3]!;
      }
      return Math.min(9000, sleepsThrough('a')(value));
    };
    expect(await delayEvidence(fakeProbe(capped), payloads)).toEqual({
      untimed: 'a: a 10 s delay answered in 9,000 ms, short of it',
    });
    // Timed alone, the page is steady: D = 2 s, and 2D fits under the app's limit.
    expect(await delayEvidence(fakeProbe(capped), payloads, true)).toHaveProperty('evidence');
  });

  it('times a payload alone when its screening went unanswered, never calling it clean', async () => {
    // Among the scan's other requests the delayed payload's answer is lost (a reset connection on a busy
    // host); alone it shows the delay in full.
    const lost = (value: string, n: number, alone: boolean) =>
      !alone && value === 'a:2' && n === 0 ? null : sleepsThrough('a')(value);
    expect(await delayEvidence(fakeProbe(lost), payloads)).toHaveProperty('evidence');
    // Lost alone too: not timed, and said so.
    const alwaysLost = (value: string) => (value.startsWith('a:') && value !== 'a:0' ? null : 100);
    expect(await delayEvidence(fakeProbe(alwaysLost), payloads)).toEqual({
      untimed: expect.stringMatching(/^a: a 2 s delay went unanswered within [\d,]+ ms$/) as unknown,
    });
  });

  it('times the original value alone when its answers among other requests spread too wide', async () => {
    // Among the scan's other requests the original value takes 0.1–6 s; alone, 100 ms.
    const answer = (value: string, n: number, alone: boolean) =>
      value === 'x' ? (alone ? 100 : [100, 6000, 300][n % 3]!) : sleepsThrough('a')(value);
    expect(await delayEvidence(fakeProbe(answer), payloads)).toEqual({
      evidence: expect.stringMatching(/^a: a 2 s delay/) as unknown,
    });
  });

  it('leaves a page too unsteady to time untimed, with its answer times', async () => {
    const jitter = (value: string, n: number) => (value === 'x' ? [100, 5000, 2500][n % 3]! : 100);
    expect(await delayEvidence(fakeProbe(jitter), payloads)).toEqual({
      untimed: 'the original value answered in 100 ms–5,000 ms: too slow or unsteady to time a delay',
    });
    expect(
      await delayEvidence(
        fakeProbe((v) => (v === 'x' ? null : 100)),
        payloads,
      ),
    ).toEqual({
      untimed: 'the original value went unanswered within 8,000 ms',
    });
  });

  it('screens again when many payloads seem delayed at once, and gives up only when they do twice', async () => {
    const five: DelayPayload[] = ['a', 'b', 'c', 'd', 'e'].map((label) => ({
      label,
      build: (_p, s) => `${label}:${s}`,
    }));
    // The first screening stalls every payload; the second shows only "c" delayed.
    const onceStalled = (value: string, n: number, alone: boolean) =>
      !alone && value !== 'x' && n === 0 ? 9000 : sleepsThrough('c')(value);
    expect(await delayEvidence(fakeProbe(onceStalled), five)).toHaveProperty('evidence');
    const alwaysStalled = (value: string, _n: number, alone: boolean) =>
      !alone && value !== 'x' ? 9000 : 100;
    expect(await delayEvidence(fakeProbe(alwaysStalled), five)).toEqual({
      untimed: '5 of 5 payloads seemed delayed at once, twice: the answers stall by themselves',
    });
  });
});
