// Why a request got no answer the scanner can use. Messages quote what the target sent, so every quote
// goes through `inert`: a status line full of escape sequences must read as text in a log or a terminal.

/** `text` with control characters shown as \xNN and cut to `max` characters. */
export function inert(text: string, max = 120): string {
  const shown = text.replace(
    // eslint-disable-next-line no-control-regex -- the point is to find control characters
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

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
    super(`${deadlineText[deadline]} from ${inert(url, 200)} within ${ms} ms`);
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
    super(`unreadable answer from ${inert(url, 200)}: ${problem}${excerpt ? ` (began "${excerpt}")` : ''}`);
    this.name = 'HttpProtocolError';
  }
}
