// A tolerant reader of HTTP/1.x answers, for what Node's parser refuses but browsers read: bare LF line
// ends, header lines without a colon or with a space before it, folded lines, a Content-Length sent twice
// or lying in either direction, broken chunked encoding. What it had to overlook is kept as notes (evidence
// of a malformed answer); what no browser reads (no status line: HTTP/0.9-style bytes; headers past 256 KB,
// Chromium's limit) is an HttpProtocolError. Incremental: the bytes of a drip are not parsed again.
import type { IncomingHttpHeaders } from 'node:http';

import { HttpProtocolError } from './http-errors.ts';
import { inertText } from './inert-text.ts';

/** Chromium's limit on the size of a response's headers (and so ours). */
export const maxHeaderBytes = 256 * 1024;

/** Why a body is not whole: what arrived is kept, as browsers show what arrived. */
export type CutShort = 'size' | 'deadline' | 'idle' | 'closed' | 'malformed';

export interface Head {
  status: number;
  headers: IncomingHttpHeaders;
  /** Offset of the body's first byte in the bytes read. */
  bodyStart: number;
  notes: string[];
}

export interface LenientAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  notes: string[];
  cutShort?: CutShort;
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

type Framing =
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

/** Decodes chunked bodies as bytes arrive; `broken` once a chunk size is not one. */
class ChunkedDecoder {
  private pending: Buffer = Buffer.alloc(0);
  private left = 0;
  private state: 'size' | 'data' | 'data-end' | 'done' = 'size';
  broken = false;

  get done(): boolean {
    return this.state === 'done' || this.broken;
  }

  /** Decoded bytes of `chunk`. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let bytes = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (bytes.length > 0 && !this.done) {
      if (this.state === 'data') {
        const part = bytes.subarray(0, this.left);
        out.push(part);
        this.left -= part.length;
        bytes = bytes.subarray(part.length);
        if (this.left === 0) {
          this.state = 'data-end';
        }
        continue;
      }
      const eol = bytes.indexOf(10);
      if (eol === -1) {
        // Guard: a size line that never ends (a drip of digits) breaks the body instead of growing.
        this.broken = bytes.length > 1024;
        this.pending = this.broken ? Buffer.alloc(0) : bytes;
        break;
      }
      const line = bytes.subarray(0, eol).toString('latin1').trim();
      bytes = bytes.subarray(eol + 1);
      if (this.state === 'data-end') {
        // The CRLF after a chunk's data; a server that leaves it out is read on (browsers do).
        this.state = 'size';
        if (line === '') {
          continue;
        }
      }
      const size = /^([0-9a-f]{1,12})\s*(;.*)?$/i.exec(line);
      if (!size) {
        this.broken = true;
        break;
      }
      this.left = parseInt(size[1]!, 16);
      this.state = this.left === 0 ? 'done' : 'data';
    }
    return out;
  }
}

/** Reads one answer from the bytes of a connection that closes after it. */
export class LenientReader {
  /** Bytes of the head so far, in a buffer that doubles (a drip of single bytes is not copied over and over). */
  private headBytes = Buffer.alloc(0);
  private headLength = 0;
  private head: Head | null = null;
  private frame: Framing = { kind: 'close' };
  private readonly notes: string[] = [];
  private readonly body: Buffer[] = [];
  private bodyBytes = 0;
  private chunked: ChunkedDecoder | null = null;
  /** The answer once it is complete (framing satisfied, size cap reached or body broken). */
  answer: LenientAnswer | null = null;

  constructor(
    private readonly url: string,
    private readonly method: string,
    private readonly maxBody: number,
  ) {}

  get hasHead(): boolean {
    return this.head !== null;
  }

  /** Takes the next bytes; throws HttpProtocolError when they cannot be an HTTP answer. */
  push(chunk: Buffer): void {
    if (this.answer) {
      this.noteExtra(chunk.length);
      return;
    }
    if (!this.head) {
      const from = this.headLength;
      this.append(chunk);
      const bytes = this.headBytes.subarray(0, this.headLength);
      this.head = readHead(bytes, this.url, from);
      if (!this.head) {
        return;
      }
      const framed = framing(this.head, this.method, contentLengths(bytes, this.head));
      this.frame = framed;
      this.notes.push(...this.head.notes, ...framed.notes);
      this.chunked = framed.kind === 'chunked' ? new ChunkedDecoder() : null;
      chunk = Buffer.from(bytes.subarray(this.head.bodyStart));
      this.headBytes = Buffer.alloc(0);
      this.headLength = 0;
    }
    this.take(chunk);
  }

  /** The connection ended: the answer with what arrived. Throws when not even a head came. */
  end(): LenientAnswer {
    return this.answer ?? this.cut('closed');
  }

  /** The answer so far, cut short by `reason`; throws HttpProtocolError when no head came. */
  cut(reason: CutShort): LenientAnswer {
    if (!this.head) {
      const sent = this.headBytes.subarray(0, this.headLength).toString('latin1');
      throw new HttpProtocolError(
        this.url,
        sent ? 'the answer ended inside its headers' : 'no answer',
        inertText(sent, 40),
      );
    }
    const complete =
      this.frame.kind === 'close' ||
      this.frame.kind === 'none' ||
      (reason === 'closed' && this.chunked?.done);
    if (!complete && this.frame.kind === 'length') {
      this.notes.push(`body ended after ${this.bodyBytes} of ${this.frame.length} announced bytes`);
    } else if (!complete && this.frame.kind === 'chunked') {
      this.notes.push(`chunked body ended without its last chunk after ${this.bodyBytes} bytes`);
    }
    return this.finish(complete && reason === 'closed' ? undefined : reason);
  }

  private append(chunk: Buffer): void {
    if (this.headLength + chunk.length > this.headBytes.length) {
      const grown = Buffer.alloc(Math.max(4096, 2 * (this.headLength + chunk.length)));
      this.headBytes.copy(grown, 0, 0, this.headLength);
      this.headBytes = grown;
    }
    chunk.copy(this.headBytes, this.headLength);
    this.headLength += chunk.length;
  }

  private take(chunk: Buffer): void {
    const frame = this.frame;
    if (frame.kind === 'none') {
      this.finish(undefined);
      this.noteExtra(chunk.length);
      return;
    }
    let parts = [chunk];
    if (this.chunked) {
      parts = this.chunked.push(chunk);
    } else if (frame.kind === 'length') {
      const room = frame.length - this.bodyBytes;
      parts = [chunk.subarray(0, room)];
      if (chunk.length >= room) {
        this.add(parts);
        if (!this.answer) {
          this.finish(undefined);
        }
        this.noteExtra(chunk.length - room);
        return;
      }
    }
    this.add(parts);
    if (!this.answer && this.chunked?.broken) {
      this.notes.push(`invalid chunked encoding after ${this.bodyBytes} bytes`);
      this.finish('malformed');
    } else if (!this.answer && this.chunked?.done) {
      this.finish(undefined);
    }
  }

  private add(parts: Buffer[]): void {
    for (const part of parts) {
      const room = this.maxBody - this.bodyBytes;
      this.body.push(part.subarray(0, Math.max(0, room)));
      this.bodyBytes += Math.min(part.length, Math.max(0, room));
      // Guard: a huge or endless body must not exhaust memory; what we have is enough to judge.
      if (part.length > room && !this.answer) {
        this.finish('size');
      }
    }
  }

  private extra = 0;

  private noteExtra(bytes: number): void {
    if (bytes <= 0 || this.frame.kind !== 'length' || this.answer?.cutShort === 'size') {
      return;
    }
    this.extra += bytes;
    const note = (n: number) => `${n} bytes after the announced Content-Length, ignored`;
    const at = this.notes.findIndex((n) => n.endsWith('after the announced Content-Length, ignored'));
    this.notes.splice(at === -1 ? this.notes.length : at, at === -1 ? 0 : 1, note(this.extra));
  }

  private finish(cutShort: CutShort | undefined): LenientAnswer {
    const head = this.head!;
    this.answer = {
      status: head.status,
      headers: head.headers,
      body: Buffer.concat(this.body),
      notes: this.notes,
      ...(cutShort ? { cutShort } : {}),
    };
    return this.answer;
  }
}
