// The head of an HTTP/1.x answer read as browsers read it: bare LF line ends, header lines without a
// colon (ignored) or with a space before it, folded lines; what had to be overlooked is kept as notes. What
// no browser reads is an HttpProtocolError: no status line (HTTP/0.9-style bytes), headers past 256 KB
// (Chromium's limit). Also how the body of such a head ends, with a note for each lie in its framing.
import type { IncomingHttpHeaders } from 'node:http';

import { HttpProtocolError } from './http-errors.ts';
import { inertText } from './inert-text.ts';

/** Chromium's limit on the size of a response's headers (and so ours). */
export const maxHeaderBytes = 256 * 1024;

export interface Head {
  status: number;
  headers: IncomingHttpHeaders;
  /** Offset of the body's first byte in the bytes read. */
  bodyStart: number;
  notes: string[];
}

// Node keeps the first of these when a server sends one twice (IncomingMessage), and so do we.
const firstWins = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

const isBlank = (byte: number | undefined) => byte === 13 || byte === 10 || byte === 32 || byte === 9;

/** Index just past the blank line that ends the head (CRLF or bare LF), searching from `from`; -1 if none yet. */
function headEnd(bytes: Buffer, from: number): number {
  for (let i = bytes.indexOf(10, from); i !== -1; i = bytes.indexOf(10, i + 1)) {
    if (bytes[i + 1] === 10) {
      return i + 2;
    }
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) {
      return i + 3;
    }
  }
  return -1;
}

function toHeaders(pairs: [string, string][]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const seen = headers[name];
    if (name === 'set-cookie') {
      headers[name] = [...((seen as string[] | undefined) ?? []), value];
    } else if (seen === undefined) {
      headers[name] = value;
    } else if (!firstWins.has(name)) {
      headers[name] = `${seen as string}${name === 'cookie' ? '; ' : ', '}${value}`;
    }
  }
  return headers;
}

/**
 * The head in `bytes`, null while it has not ended. Throws HttpProtocolError for bytes no browser
 * reads as HTTP.
 */
export function readHead(bytes: Buffer, url: string, searchFrom = 0): Head | null {
  let start = 0;
  while (isBlank(bytes[start])) {
    start += 1;
  }
  const prefix = bytes
    .subarray(start, start + 5)
    .toString('latin1')
    .toUpperCase();
  if (!'HTTP/'.startsWith(prefix) && !prefix.startsWith('HTTP/')) {
    throw new HttpProtocolError(
      url,
      'no HTTP status line',
      inertText(bytes.subarray(start, start + 40).toString('latin1'), 40),
    );
  }
  const end = headEnd(bytes, Math.max(start, searchFrom - 3));
  if ((end === -1 ? bytes.length : end - start) > maxHeaderBytes) {
    throw new HttpProtocolError(
      url,
      `response headers larger than ${maxHeaderBytes / 1024} KB, more than browsers accept`,
      '',
    );
  }
  if (end === -1) {
    return null;
  }
  const text = bytes.subarray(start, end).toString('latin1');
  const notes: string[] = [];
  if (/(^|[^\r])\n/.test(text)) {
    notes.push('lines end in a bare LF instead of CRLF');
  }
  const [statusLine = '', ...lines] = text.split(/\r?\n/);
  const status = /^HTTP\/(\S*)[ \t]+(\d{3})(?:[ \t]|$)/i.exec(statusLine);
  if (!status) {
    throw new HttpProtocolError(url, 'no status code in the status line', inertText(statusLine, 40));
  }
  if (status[1] !== '1.1' && status[1] !== '1.0') {
    notes.push(`unusual HTTP version "${inertText(status[1]!, 16)}"`);
  }
  const pairs: [string, string][] = [];
  for (const line of lines.filter((l) => l !== '')) {
    const last = pairs.at(-1);
    if (/^[ \t]/.test(line) && last) {
      last[1] = `${last[1]} ${line.trim()}`;
      notes.push('a header folded over two lines');
      continue;
    }
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).trim().toLowerCase();
    // A field name is a token: no separators, no spaces, nothing outside visible ASCII.
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      notes.push(`a header line that is not a header, ignored: "${inertText(line, 60)}"`);
      continue;
    }
    if (/[ \t]$/.test(line.slice(0, colon))) {
      notes.push(`space before the colon in header ${inertText(name, 40)}`);
    }
    pairs.push([name, line.slice(colon + 1).trim()]);
  }
  return { status: Number(status[2]), headers: toHeaders(pairs), bodyStart: end, notes };
}

export type Framing =
  { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' };

/** How the body of `head` ends, with a note for each lie or contradiction in the framing headers. */
export function framing(head: Head, method: string, rawLengths: string[]): Framing & { notes: string[] } {
  const notes: string[] = [];
  if (method === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304) {
    return { kind: 'none', notes };
  }
  const codings = String(head.headers['transfer-encoding'] ?? '').toLowerCase();
  if (/(^|,)\s*chunked\s*$/.test(codings)) {
    if (rawLengths.length > 0) {
      notes.push('both Transfer-Encoding: chunked and Content-Length; chunked read');
    }
    return { kind: 'chunked', notes };
  }
  const lengths = rawLengths.flatMap((value) => value.split(',').map((v) => v.trim()));
  if (lengths.length === 0) {
    return { kind: 'close', notes };
  }
  if (rawLengths.length > 1) {
    notes.push(`Content-Length sent ${rawLengths.length} times`);
  }
  const distinct = [...new Set(lengths)];
  if (distinct.length === 1 && /^\d{1,15}$/.test(distinct[0]!)) {
    return { kind: 'length', length: Number(distinct[0]), notes };
  }
  notes.push(
    `${distinct.length > 1 ? 'conflicting' : 'invalid'} Content-Length (${inertText(distinct.join(', '), 60)}); read to the end of the connection`,
  );
  return { kind: 'close', notes };
}

/** Every Content-Length line of a head, whatever the header map kept (it keeps the first). */
export function contentLengths(bytes: Buffer, head: Head): string[] {
  const text = bytes.subarray(0, head.bodyStart).toString('latin1');
  return [...text.matchAll(/^[ \t]*content-length[ \t]*:(.*)$/gim)].map((m) => m[1]!.trim());
}
