// The three deadlines of one HTTP exchange, and the scan's stop: response headers (from the send, connect
// and TLS included), the whole response (whatever the drip), and silence. At the whole-response deadline
// or a silence mid-body, what arrived is the answer, marked cut short and without an answer time (it never
// ended, so its time must not read as a server's delay); with no head by then, a typed timeout.
import type http from 'node:http';

import type { ResolvedTarget } from '../target-policy.ts';
import { HttpTimeoutError } from './http-errors.ts';
import type { HttpDeadline } from './http-errors.ts';
import type { CutShort, LenientAnswer } from './http-lenient.ts';
import { ScanStoppedError } from './scan-stopped.ts';

export interface ExchangeLimits {
  /** Longest silence (no byte at all) before the answer is given up or, mid-body, cut short. */
  idleMs: number;
  /** From the send to the end of the response headers. */
  headersMs: number;
  /** From the send to the end of the body. */
  responseMs: number;
}

export interface ExchangeInput {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  target: ResolvedTarget;
  agent: http.Agent;
  limits: ExchangeLimits;
  maxBody: number;
  signal?: AbortSignal;
  /** Called before the tolerant reader sends the request again (the client counts it and paces it). */
  beforeResend: () => Promise<void>;
}

export interface Exchange extends LenientAnswer {
  /** From the send to the end of the body; absent when a deadline cut the body (the answer never ended). */
  elapsedMs?: number;
}

export type Settle = { done: (answer: LenientAnswer) => void; fail: (error: unknown) => void };

/**
 * Arms the three deadlines and the abort signal around one exchange; `cut` is asked for what arrived
 * (null when no head came, which makes the deadline an HttpTimeoutError).
 */
export function armDeadlines(
  input: ExchangeInput,
  resolve: (exchange: Exchange) => void,
  reject: (error: unknown) => void,
  cut: (reason: CutShort) => LenientAnswer | null,
  release: () => void,
): Settle & { headersArrived: () => void; idle: () => void } {
  const { url, limits, signal } = input;
  const sentAt = performance.now();
  let settled = false;
  const settle = (action: () => void) => {
    if (!settled) {
      settled = true;
      clearTimeout(headersTimer);
      clearTimeout(responseTimer);
      signal?.removeEventListener('abort', onAbort);
      action();
      release();
    }
  };
  const done = (answer: LenientAnswer) =>
    settle(() => {
      const timed = answer.cutShort !== 'deadline' && answer.cutShort !== 'idle';
      resolve({ ...answer, ...(timed ? { elapsedMs: performance.now() - sentAt } : {}) });
    });
  const fail = (error: unknown) =>
    settle(() => reject(signal?.aborted ? new ScanStoppedError('aborted') : error));
  const expire = (reason: 'deadline' | 'idle', deadline: HttpDeadline, ms: number) => {
    let answer: LenientAnswer | null;
    try {
      answer = cut(reason);
    } catch (error) {
      fail(error);
      return;
    }
    if (answer) {
      done(answer);
    } else {
      fail(new HttpTimeoutError(url.href, deadline, ms));
    }
  };
  const onAbort = () => fail(new ScanStoppedError('aborted'));
  const headersTimer = setTimeout(
    () => fail(new HttpTimeoutError(url.href, 'headers', limits.headersMs)),
    limits.headersMs,
  );
  const responseTimer = setTimeout(
    () => expire('deadline', 'response', limits.responseMs),
    limits.responseMs,
  );
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) {
    onAbort();
  }
  return {
    done,
    fail,
    headersArrived: () => clearTimeout(headersTimer),
    idle: () => expire('idle', 'idle', limits.idleMs),
  };
}
