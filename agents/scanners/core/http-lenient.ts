// A tolerant reader of HTTP/1.x answers, for what Node's parser refuses but browsers read (http-head.ts
// for the head, http-chunked.ts for chunked bodies): a Content-Length sent twice or lying in either
// direction, broken chunked encoding. What it had to overlook is kept as notes (evidence of a malformed
// answer). Incremental: the bytes of a drip are not parsed again.
import type { IncomingHttpHeaders } from 'node:http';

import { ChunkedDecoder } from './http-chunked.ts';
import { HttpProtocolError } from './http-errors.ts';
import { contentLengths, framing, readHead } from './http-head.ts';
import type { Framing, Head } from './http-head.ts';
import { inertText } from './inert-text.ts';

/** Why a body is not whole: what arrived is kept, as browsers show what arrived. */
export type CutShort = 'size' | 'deadline' | 'idle' | 'closed' | 'malformed';

export interface LenientAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  notes: string[];
  cutShort?: CutShort;
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
