// Time-based confirmation, shared by blind SQL and blind command injection. A slow page is not an
// injection, and neither is a page whose answer time wanders or that stalls now and then. The payloads
// are first screened together among the scan's other requests (which can only make an answer slower, so
// a fast answer is a sure no, and no answer is timed alone); when three or more different payloads seem
// delayed twice in a row, the page stalls by itself and is not timed. A payload that did delay is
// measured alone in the timing lane: D, 0, 2D, 0, D. Each delay must show up in full, vanish at zero,
// grow in proportion (2D takes about twice D's extra time) and repeat (the second D close to the first).
// D is at least 2 s and at least three times the spread of the page's own answer times (measured again
// alone when the spread among the scan's other requests is too wide to time).
//
// The baseline's three answers are first taken among the scan's other requests, all at once; at a busy
// moment all three can be slow, and a real delay answered at a quieter moment then looks like none. A
// delay of D cannot answer in less than D, so an answer under 0.9 D is a sure no whatever the baseline;
// an answer above that which the baseline calls undelayed is a no only on a baseline taken alone: the
// page is timed alone and judged again, once.
//
// A real delay always shows up in full, so a sequence fails on an injectable parameter only when the host
// (or the page) is too unsteady: a zero delay that came back slow, a 2D out of proportion, two Ds far
// apart. Such a sequence is run once more; when that fails too, the parameter is reported as untimed, not
// as clean, and the scan says it is partial. A page that cannot be timed within the request limit at all
// is untimed as well.
import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import type { WebappRuleId } from '../rules.ts';
import type { ParamProbe } from './param-probe.ts';

/** What the delay lane needs of a parameter under test. */
export type TimedProbe = Pick<ParamProbe, 'param' | 'original' | 'numeric' | 'time' | 'timingOnce'>;

export interface DelayPayload {
  /** What the evidence calls it: "MySQL/MariaDB SLEEP()", "sleep in $( )"… */
  label: string;
  /** The parameter's value that should make the server wait `seconds`. */
  build: (probe: TimedProbe, seconds: number) => string;
}

/** Proven (the evidence), not timed (why), or timed and clean (null). */
export type DelayVerdict = { evidence: string } | { untimed: string } | null;

const minimumDelay = 2;
const slowestTimedMs = 15_000;
const baselineTimeoutMs = 8_000;

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;

type Timing = { min: number; max: number };
type Outcome = { evidence: string } | { clean: true } | { unsteady: string } | { doubtful: true };

const delayFor = (timing: Timing) =>
  1000 * Math.max(minimumDelay, Math.ceil((3 * (timing.max - timing.min)) / 1000));
const timeable = (timing: Timing) => timing.max + 2 * delayFor(timing) + 2000 <= slowestTimedMs;

/**
 * The original value's answer times: among other requests first, alone when those are too wide or when
 * `fresh` (a second try: a baseline taken alone gives the smallest delay that can be timed).
 */
async function steadyTiming(probe: TimedProbe, fresh: boolean): Promise<Timing | { untimed: string }> {
  const shared = fresh ? null : await probe.timingOnce(baselineTimeoutMs);
  if (shared && timeable(shared)) {
    return shared;
  }
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = await probe.time(probe.original, baselineTimeoutMs, true);
    if (t === null) {
      return { untimed: `the original value went unanswered within ${ms(baselineTimeoutMs)}` };
    }
    times.push(t);
  }
  const alone = { min: Math.min(...times), max: Math.max(...times) };
  return timeable(alone)
    ? alone
    : {
        untimed: `the original value answered in ${ms(alone.min)}–${ms(alone.max)}: too slow or unsteady to time a delay`,
      };
}

/** The verdict on the first of `payloads` that delays the answer as it should. */
export async function delayEvidence(
  probe: TimedProbe,
  payloads: DelayPayload[],
  fresh = false,
): Promise<DelayVerdict> {
  const timing = await steadyTiming(probe, fresh);
  if ('untimed' in timing) {
    return timing;
  }
  const delay = delayFor(timing);
  const seconds = delay / 1000;
  // Room for a query that runs the payload twice, so that a true delay is measured, not cut off.
  const timeoutMs = timing.max + 4 * delay + 2000;
  const delayed = (t: number | null): t is number =>
    t !== null && t >= timing.min + 0.9 * delay && t >= timing.max + 0.5 * delay;
  const undelayed = (t: number | null) => t !== null && t <= timing.max + 0.3 * delay;
  // Long enough to hold a real delay, yet undelayed by the baseline: a no only if the baseline was alone.
  const doubtful = (t: number | null) => !fresh && t !== null && t >= 0.9 * delay && !delayed(t);
  const screen = () =>
    Promise.all(payloads.map((payload) => probe.time(payload.build(probe, seconds), timeoutMs, false)));
  let screened = await screen();
  // Many payloads delayed at once is the page (or the host) stalling: screened again, once.
  if (screened.filter(delayed).length >= 3) {
    screened = await screen();
    const again = screened.filter(delayed).length;
    if (again >= 3) {
      return {
        untimed: `${again} of ${payloads.length} payloads seemed delayed at once, twice: the answers stall by themselves`,
      };
    }
  }
  if (screened.some(doubtful)) {
    return delayEvidence(probe, payloads, true);
  }
  const alone = (payload: DelayPayload, s: number) => probe.time(payload.build(probe, s), timeoutMs, true);
  const late = (t: number | null) => (t === null ? 'no answer' : ms(t));

  const sequence = async (payload: DelayPayload): Promise<Outcome> => {
    const once = await alone(payload, seconds);
    if (once === null) {
      return { unsteady: `a ${seconds} s delay went unanswered within ${ms(timeoutMs)}` };
    }
    if (!delayed(once)) {
      return doubtful(once) ? { doubtful: true } : { clean: true };
    }
    const none = await alone(payload, 0);
    if (!undelayed(none)) {
      return { unsteady: `no delay answered in ${late(none)}, after a ${seconds} s delay in ${ms(once)}` };
    }
    const twice = await alone(payload, 2 * seconds);
    if (twice === null) {
      return { unsteady: `a ${2 * seconds} s delay went unanswered within ${ms(timeoutMs)}` };
    }
    if (!delayed(twice)) {
      return { clean: true };
    }
    // Delayed, but short of 2D: the app may cut its own wait (a subprocess or statement timeout).
    if (twice < timing.min + 1.8 * delay) {
      return { unsteady: `a ${2 * seconds} s delay answered in ${ms(twice)}, short of it` };
    }
    // The extra time of 2D is about twice that of D (a query that runs the payload twice doubles both).
    const ratio = (twice - timing.min) / (once - timing.min);
    if (ratio < 1.6 || ratio > 2.4) {
      return {
        unsteady: `a ${seconds} s delay answered in ${ms(once)} but ${2 * seconds} s in ${ms(twice)}`,
      };
    }
    const noneAgain = await alone(payload, 0);
    if (!undelayed(noneAgain)) {
      return { unsteady: `no delay answered in ${late(noneAgain)}, after a ${2 * seconds} s delay` };
    }
    const onceAgain = await alone(payload, seconds);
    if (onceAgain === null) {
      return { unsteady: `a ${seconds} s delay went unanswered within ${ms(timeoutMs)}` };
    }
    if (!delayed(onceAgain)) {
      return { clean: true };
    }
    if (Math.abs(onceAgain - once) > 0.25 * delay) {
      return { unsteady: `a ${seconds} s delay answered in ${ms(once)}, then in ${ms(onceAgain)}` };
    }
    return {
      evidence: `${payload.label}: a ${seconds} s delay answered in ${ms(once)} and ${ms(onceAgain)}, ${2 * seconds} s in ${ms(twice)}, no delay in ${ms(none!)} and ${ms(noneAgain!)} (the original value: ${ms(timing.min)}–${ms(timing.max)}); payload ${probe.param}=${payload.build(probe, seconds)}`,
    };
  };

  let unsteady: string | null = null;
  for (const [i, payload] of payloads.entries()) {
    // A fast answer is a sure no. No answer at all is not (a busy host, a reset connection): the payload
    // is timed alone, where a second silence makes the parameter untimed, never clean.
    const first = screened[i] ?? null;
    if (first !== null && !delayed(first)) {
      continue;
    }
    let outcome = await sequence(payload);
    // An unsteady sequence may be a stall of a busy machine: one more sequence, never more.
    if ('unsteady' in outcome) {
      outcome = await sequence(payload);
    }
    if ('evidence' in outcome) {
      return outcome;
    }
    if ('doubtful' in outcome) {
      return delayEvidence(probe, payloads, true);
    }
    if ('unsteady' in outcome) {
      unsteady ??= `${payload.label}: ${outcome.unsteady}`;
    }
  }
  return unsteady ? { untimed: unsteady } : null;
}

/** A timed check's result: its finding, the reason its parameter was not timed, or null (timed, clean). */
export type TimedFinding = Finding | { untimed: string } | null;

export function timedFinding(
  probe: Pick<ParamProbe, 'location'>,
  rule: WebappRuleId,
  verdict: DelayVerdict,
): TimedFinding {
  if (verdict === null || 'untimed' in verdict) {
    return verdict;
  }
  return webappFinding(rule, { location: probe.location, evidence: verdict.evidence });
}
