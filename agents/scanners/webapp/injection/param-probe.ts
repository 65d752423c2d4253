// One value under test: a parameter of an endpoint, or another carrier of a value the app reads (a cookie, an
// uploaded file). Sends values in it (through the timing lane), observes the answers with reflections
// removed, and keeps what the checks share (its original value, its baseline).
import type { HttpClient, HttpResponse, RequestInit } from '../../core/http-client.ts';
import { findStackTrace } from '../../core/stack-trace.ts';
import type { Endpoint } from '../crawl.ts';
import { crawledValue, send, where } from '../parameter-probes.ts';
import { Baseline, observe } from './compare.ts';
import type { Observation } from './compare.ts';
import type { TimingLane } from './lane.ts';

/** How much of each probe answer is read for a stack trace. */
const traceReadChars = 64 * 1024;

/** Sends one value where the app reads it (the options carry a timeout). */
export type ValueSender = (value: string, options?: RequestInit) => Promise<HttpResponse | null>;

export class ValueProbe {
  private originalAnswer: Promise<HttpResponse | null> | null = null;
  private baseline: Promise<Baseline | null> | null = null;
  private timing: Promise<{ min: number; max: number } | null> | null = null;

  /**
   * `location` is where a finding is filed, `param` the carrier's name in the evidence, `original` the
   * value the app itself sent there (a link's query string, the app's JSON body) or a neutral one.
   */
  constructor(
    readonly client: HttpClient,
    readonly location: string,
    readonly param: string,
    readonly original: string,
    private readonly sender: ValueSender,
    private readonly lane: TimingLane,
  ) {}

  /** `original` when it reads as a number, else 1: the value numeric contexts are probed with. */
  get numeric(): string {
    return /^-?\d{1,9}$/.test(this.original) ? this.original : '1';
  }

  request(value: string): Promise<HttpResponse | null> {
    return this.lane.shared(async () => {
      const response = await this.sender(value);
      this.noteTrace(value, response);
      return response;
    });
  }

  /** The first answer (to any value, the original too) that showed a stack trace or debug page (index.ts judges it). */
  trace: { value: string; status: number; trace: string } | null = null;

  private noteTrace(value: string, response: HttpResponse | null): void {
    if (this.trace === null && response) {
      // Bounded: every probe's answer passes here, and an error page shows its trace near its top.
      const trace = findStackTrace(response.body.slice(0, traceReadChars));
      if (trace) {
        this.trace = { value, status: response.status, trace };
      }
    }
  }

  async observe(value: string): Promise<Observation | null> {
    const response = await this.request(value);
    return response ? observe(response, value, this.original) : null;
  }

  /**
   * Milliseconds the server took to answer `value`, null when it did not. `alone` measures with nothing
   * else of ours in flight; otherwise other requests may only have made it slower, never faster.
   */
  async time(value: string, timeoutMs: number, alone: boolean): Promise<number | null> {
    const sendIt = () => this.sender(value, { timeoutMs });
    const response = await (alone ? this.lane.exclusive(sendIt) : this.lane.shared(sendIt));
    return response?.elapsedMs ?? null;
  }

  /** The answer to the original value (requested once per parameter). */
  originalOnce(): Promise<HttpResponse | null> {
    this.originalAnswer ??= this.request(this.original);
    return this.originalAnswer;
  }

  /** Three answers to the original value (once per parameter), or null if one did not come. */
  baselineOnce(): Promise<Baseline | null> {
    this.baseline ??= (async () => {
      const first = await this.originalOnce();
      const more = first ? await Promise.all([this.observe(this.original), this.observe(this.original)]) : [];
      const samples = [first ? observe(first, this.original, this.original) : null, ...more];
      return samples.every((s): s is Observation => s !== null) ? new Baseline(samples) : null;
    })();
    return this.baseline;
  }

  /**
   * The original value's answer time, fastest and slowest of three requests (once per parameter). Measured
   * among other requests: that widens the range, which makes the timing check stricter, or slows all three
   * at a busy moment, which the timing check notices and answers by timing the page alone.
   */
  timingOnce(timeoutMs: number): Promise<{ min: number; max: number } | null> {
    this.timing ??= (async () => {
      const times = await Promise.all([1, 2, 3].map(() => this.time(this.original, timeoutMs, false)));
      return times.every((t): t is number => t !== null)
        ? { min: Math.min(...times), max: Math.max(...times) }
        : null;
    })();
    return this.timing;
  }
}

/** A parameter of an endpoint (query, form or JSON), at the value the crawl saw, else a neutral one. */
export class ParamProbe extends ValueProbe {
  constructor(
    client: HttpClient,
    readonly endpoint: Endpoint,
    param: string,
    lane: TimingLane,
  ) {
    super(
      client,
      where(endpoint, param),
      param,
      crawledValue(endpoint, param) || 'test',
      (value, options) => send(client, endpoint, param, value, options),
      lane,
    );
  }
}

/** Shuffles in place (Fisher-Yates) and returns the array: the order of checks must not be predictable. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
