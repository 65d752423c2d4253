// Time-based confirmation, shared by blind SQL and blind command injection. A slow page is not an
// injection, and neither is a page whose answer time wanders or that stalls now and then. The payloads
// are first screened together among the scan's other requests (which can only make an answer slower, so
// a fast answer is a sure no); when three or more different payloads seem delayed, the page stalls by
// itself and is not timed. A payload that did delay is measured alone in the timing lane: D, 0, 2D, 0,
// D. Each delay must show up in full, vanish at zero, grow in proportion (2D takes about twice D's extra
// time) and repeat (the second D close to the first). D is at least 2 s and at least three times the
// spread of the page's own answer times; a page too slow or unsteady to time within the request limit
// is not timed at all.
import type { ParamProbe } from './param-probe.ts';

export interface DelayPayload {
  /** What the evidence calls it: "MySQL/MariaDB SLEEP()", "sleep in $( )"… */
  label: string;
  /** The parameter's value that should make the server wait `seconds`. */
  build: (probe: ParamProbe, seconds: number) => string;
}

const minimumDelay = 2;
const slowestTimedMs = 15_000;
const baselineTimeoutMs = 8_000;

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;

type Outcome = { evidence: string } | { stalled: boolean };

/** The evidence for the first of `payloads` that delays the answer as it should, else null. */
export async function delayEvidence(probe: ParamProbe, payloads: DelayPayload[]): Promise<string | null> {
  const timing = await probe.timingOnce(baselineTimeoutMs);
  if (!timing) {
    return null;
  }
  const seconds = Math.max(minimumDelay, Math.ceil((3 * (timing.max - timing.min)) / 1000));
  const delay = seconds * 1000;
  if (timing.max + 2 * delay + 2000 > slowestTimedMs) {
    return null;
  }
  // Room for a query that runs the payload twice, so that a true delay is measured, not cut off.
  const timeoutMs = timing.max + 4 * delay + 2000;
  const delayed = (t: number | null): t is number =>
    t !== null && t >= timing.min + 0.9 * delay && t >= timing.max + 0.5 * delay;
  const undelayed = (t: number | null) => t !== null && t <= timing.max + 0.3 * delay;
  const screened = await Promise.all(
    payloads.map((payload) => probe.time(payload.build(probe, seconds), timeoutMs, false)),
  );
  if (screened.filter(delayed).length >= 3) {
    return null;
  }
  const alone = (payload: DelayPayload, s: number) => probe.time(payload.build(probe, s), timeoutMs, true);

  const sequence = async (payload: DelayPayload): Promise<Outcome> => {
    const once = await alone(payload, seconds);
    if (!delayed(once)) {
      return { stalled: false };
    }
    const none = await alone(payload, 0);
    if (!undelayed(none)) {
      return { stalled: true };
    }
    const twice = await alone(payload, 2 * seconds);
    // The extra time of 2D is about twice that of D (a query that runs the payload twice doubles both).
    const ratio = twice === null ? 0 : (twice - timing.min) / (once - timing.min);
    if (twice === null || twice < timing.min + 1.8 * delay || ratio < 1.6 || ratio > 2.4) {
      return { stalled: false };
    }
    const noneAgain = await alone(payload, 0);
    if (!undelayed(noneAgain)) {
      return { stalled: true };
    }
    const onceAgain = await alone(payload, seconds);
    if (!delayed(onceAgain) || Math.abs(onceAgain - once) > 0.25 * delay) {
      return { stalled: false };
    }
    return {
      evidence: `${payload.label}: a ${seconds} s delay answered in ${ms(once)} and ${ms(onceAgain)}, ${2 * seconds} s in ${ms(twice)}, no delay in ${ms(none!)} and ${ms(noneAgain!)} (the original value: ${ms(timing.min)}–${ms(timing.max)}); payload ${probe.param}=${payload.build(probe, seconds)}`,
    };
  };

  for (const [i, payload] of payloads.entries()) {
    if (!delayed(screened[i] ?? null)) {
      continue;
    }
    let outcome = await sequence(payload);
    // A zero delay that came back slow may be a stall of a busy machine: one more sequence, never more.
    if ('stalled' in outcome && outcome.stalled) {
      outcome = await sequence(payload);
    }
    if ('evidence' in outcome) {
      return outcome.evidence;
    }
  }
  return null;
}
