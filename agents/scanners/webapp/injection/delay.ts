// Time-based confirmation, shared by blind SQL and blind command injection. A slow page is not an
// injection, and neither is a page whose answer time wanders: the payload's delay must show up in full,
// vanish when the delay is zero, and double when it doubles. The payloads are first screened together
// among the scan's other requests (which can only make an answer slower, so a fast answer is a sure no);
// a payload that did delay is then measured alone in the timing lane: delay D, 0, 2D, 0. D is at least
// 2 s and at least three times the spread of the page's own answer times, so no wandering shorter than
// 1.8 D can pass; a page too slow or too unsteady to time within the request limit is not timed at all.
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
  // One sequence measured alone: D, 0, 2D, 0. Its evidence, or null when one step is off.
  const sequence = async (payload: DelayPayload): Promise<string | null> => {
    const once = await probe.time(payload.build(probe, seconds), timeoutMs, true);
    if (!delayed(once)) {
      return null;
    }
    const none = await probe.time(payload.build(probe, 0), timeoutMs, true);
    if (!undelayed(none)) {
      return null;
    }
    const twice = await probe.time(payload.build(probe, 2 * seconds), timeoutMs, true);
    if (twice === null || twice < timing.min + 1.8 * delay || twice < once + 0.6 * delay) {
      return null;
    }
    const noneAgain = await probe.time(payload.build(probe, 0), timeoutMs, true);
    if (!undelayed(noneAgain)) {
      return null;
    }
    return `${payload.label}: a ${seconds} s delay answered in ${ms(once)}, ${2 * seconds} s in ${ms(twice)}, no delay in ${ms(none!)} and ${ms(noneAgain!)} (the original value: ${ms(timing.min)}–${ms(timing.max)}); payload ${probe.param}=${payload.build(probe, seconds)}`;
  };
  for (const [i, payload] of payloads.entries()) {
    if (!delayed(screened[i] ?? null)) {
      continue;
    }
    // A second sequence only when the first fell short: a busy machine can stall one answer.
    const evidence = (await sequence(payload)) ?? (await sequence(payload));
    if (evidence) {
      return evidence;
    }
  }
  return null;
}
