// The injection probes on every parameter the crawl and the endpoint discovery found: path traversal,
// template and code injection, OS command injection and blind SQL injection (boolean, then time-based), with
// harmless payloads and a differential check before anything is reported. One finding per parameter and
// class: a parameter already proven injectable by the SQL error probe is not probed for SQL again.
import type { Finding } from '../../../../shared/findings.ts';
import type { HttpClient } from '../../core/http-client.ts';
import { findStackTrace } from '../../core/stack-trace.ts';
import { forEachLimit } from '../../core/pool.ts';
import type { Endpoint } from '../crawl.ts';
import { crawledValue, where } from '../parameter-probes.ts';
import { webappFinding } from '../rules.ts';
import { carries, urlParamsFirst } from '../url-params.ts';
import { codeInjection } from './code-eval.ts';
import { commandDelay, commandEcho } from './command.ts';
import type { TimedFinding } from './delay.ts';
import { TimingLane } from './lane.ts';
import { ParamProbe } from './param-probe.ts';
import { booleanSqlInjection } from './sql-boolean.ts';
import { timeSqlInjection } from './sql-time.ts';
import { templateInjection } from './ssti.ts';
import { pathTraversal } from './traversal.ts';

/** Timed checks tried a second time at the end of the phase when the first could not judge, and for how long. */
const maxRetimed = 6;
const retimeMs = 60_000;

/**
 * Requests one parameter takes when nothing is found (about 32), and a little room for a confirmation; the
 * scan's request limit bounds what goes past it.
 */
export const requestsPerParam = 35;

export interface InjectionOptions {
  maxParams: number;
  /** What is left of the scan's request budget: parameters beyond it are not started. */
  requestsLeft: number;
  /** Parameters already reported as SQL-injectable (by location). */
  sqlKnown: (location: string) => boolean;
  /** Places already reported as showing a stack trace (by location). */
  verboseKnown: (location: string) => boolean;
  onFinding: (finding: Finding) => void;
  onProgress: (done: number, total: number) => void;
}

/** A parameter the time-based checks could not judge, and why (the scan is partial for it). */
export interface Untimed {
  location: string;
  reason: string;
}

/**
 * One entry per location: parameters that carry a URL or a path first (they are where traversal and
 * server-side fetches live), then first parameters of every endpoint before second ones, so many paths get
 * probed.
 */
export function injectionTargets(
  endpoints: Endpoint[],
  maxParams: number,
): { endpoint: Endpoint; param: string }[] {
  const out: { endpoint: Endpoint; param: string }[] = [];
  const seen = new Set<string>();
  const width = Math.min(64, Math.max(0, ...endpoints.map((e) => e.params.length)));
  for (let i = 0; i < width; i++) {
    for (const endpoint of endpoints.slice(0, 500)) {
      const param = endpoint.params[i];
      if (param === undefined || seen.has(where(endpoint, param))) {
        continue;
      }
      seen.add(where(endpoint, param));
      out.push({ endpoint, param });
    }
  }
  return urlParamsFirst(out, ({ endpoint, param }) => carries(param, crawledValue(endpoint, param))).slice(
    0,
    maxParams,
  );
}

export async function injectionFindings(
  client: HttpClient,
  endpoints: Endpoint[],
  options: InjectionOptions,
): Promise<{ skipped: number; untimed: Untimed[] }> {
  const lane = new TimingLane();
  const traces = { filed: 0 };
  // Timed checks that could not judge their parameter, by location and check: tried again at the end.
  const untimed = new Map<string, { reason: string; again: () => Promise<TimedFinding> }>();
  const wanted = injectionTargets(endpoints, options.maxParams);
  const targets = wanted.slice(0, Math.max(0, Math.floor(options.requestsLeft / requestsPerParam)));
  let done = 0;
  await forEachLimit(
    targets,
    4,
    async ({ endpoint, param }) => {
      const probe = new ParamProbe(client, endpoint, param, lane);
      if (await probe.originalOnce()) {
        const report = (finding: Finding | null) => (finding ? options.onFinding(finding) : undefined);
        const timed = async (
          check: (probe: ParamProbe, fresh: boolean) => Promise<TimedFinding>,
          name: string,
        ) => {
          const result = await check(probe, false);
          if (result && 'untimed' in result) {
            // The second try times the page alone first: the smallest delay that can be timed.
            untimed.set(`${probe.location} ${name}`, {
              reason: result.untimed,
              again: () => check(probe, true),
            });
          } else {
            report(result);
          }
        };
        const sql = !options.sqlKnown(probe.location);
        // Output-based checks side by side (the lane bounds the requests in flight), then the timed ones.
        const [, , , echoed, boolean] = await Promise.all([
          pathTraversal(probe).then(report),
          templateInjection(probe).then(report),
          codeInjection(probe).then(report),
          commandEcho(probe),
          sql ? booleanSqlInjection(probe) : null,
        ]);
        report(echoed);
        report(boolean);
        if (sql && !boolean) {
          await timed(timeSqlInjection, 'sql');
        }
        if (!echoed) {
          await timed(commandDelay, 'command');
        }
        report(await traceShown(probe, options, traces));
      }
      options.onProgress(++done, targets.length);
    },
    client.signal,
  );
  // Once more, one at a time with nothing else of ours in flight (a busy moment may have passed).
  const retimeEnds = Date.now() + retimeMs;
  for (const [key, { again }] of [...untimed].slice(0, maxRetimed)) {
    if (client.signal?.aborted || Date.now() > retimeEnds) {
      break;
    }
    const result = await again();
    if (result && 'untimed' in result) {
      untimed.set(key, { reason: result.untimed, again });
    } else {
      untimed.delete(key);
      if (result) {
        options.onFinding(result);
      }
    }
  }
  const byLocation = new Map<string, string>();
  for (const [key, { reason }] of untimed) {
    const location = key.slice(0, key.lastIndexOf(' '));
    byLocation.set(location, byLocation.get(location) ?? reason);
  }
  return {
    skipped: wanted.length - targets.length,
    untimed: [...byLocation].map(([location, reason]) => ({ location, reason })),
  };
}

/** Stack traces filed per scan from the probes' answers: one handler usually shows them all. */
const maxTraces = 5;

/**
 * `web.error.verbose` when a value made the page fail and show a stack trace or debug page: the input
 * reached code that failed, and the error handler printed the trace. An error answer (4xx, 5xx) with a trace
 * is one whatever the original value got (a calculator fails on the plain "test" too); a trace in a
 * successful answer counts only when the original value's answer has none (a page may show one as content).
 * Any method (a POST form's field too): the answers are the probes' own, no request is added.
 */
async function traceShown(
  probe: ParamProbe,
  options: InjectionOptions,
  traces: { filed: number },
): Promise<Finding | null> {
  const shown = probe.trace;
  if (!shown || traces.filed >= maxTraces || options.verboseKnown(probe.location)) {
    return null;
  }
  if (shown.status < 400) {
    const original = await probe.originalOnce();
    if (!original || findStackTrace(original.body)) {
      return null;
    }
  }
  traces.filed += 1;
  return webappFinding('web.error.verbose', {
    location: probe.location,
    evidence: `${probe.param}=${JSON.stringify(shown.value.slice(0, 40))} (an injection probe) answered HTTP ${shown.status}; stack trace or debug page: "${shown.trace}"`,
  });
}

/**
 * The partial scan's words for places a time-based check could not judge (five named at most): `what` was
 * not judged at so many `of` (parameters, or places).
 */
export function untimedNote(
  untimed: readonly Untimed[],
  what = 'time-based injection',
  of = 'parameter(s)',
): string {
  const named = untimed.slice(0, 5).map((u) => `${u.location} (${u.reason})`);
  const more = untimed.length > named.length ? `; and ${untimed.length - named.length} more` : '';
  return `${what} not judged at ${untimed.length} ${of}, too unsteady to time: ${named.join('; ')}${more}`;
}
