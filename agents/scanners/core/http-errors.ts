// Why a request got no answer the scanner can use. Messages quote what the target sent, so every quote
// is made inert (inert-text.ts): a status line full of escape sequences must read as text in a log or a
// terminal.
import { inertText } from './inert-text.ts';

/** Which deadline ended the request. */
export type HttpDeadline = 'headers' | 'response' | 'idle';

const deadlineText: Record<HttpDeadline, string> = {
  headers: 'no response headers',
  response: 'no complete response',
  idle: 'nothing received',
};

/** No response headers in time (connect and TLS included), or silence before any: nothing was read. */
export class HttpTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly deadline: HttpDeadline,
    readonly ms: number,
  ) {
    super(`${deadlineText[deadline]} from ${inertText(url, 200)} within ${ms} ms`);
    this.name = 'HttpTimeoutError';
  }
}

/** An answer that is not HTTP a browser would read (HTTP/0.9-style bytes, headers past 256 KB...). */
export class HttpProtocolError extends Error {
  constructor(
    readonly url: string,
    /** What is wrong, in our words. */
    readonly problem: string,
    /** The first bytes the target sent, as inert text. */
    readonly excerpt: string,
  ) {
    super(
      `unreadable answer from ${inertText(url, 200)}: ${problem}${excerpt ? ` (began "${excerpt}")` : ''}`,
    );
    this.name = 'HttpProtocolError';
  }
}
