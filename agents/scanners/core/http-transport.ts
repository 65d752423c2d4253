// One HTTP exchange under three deadlines: response headers (from the send, connect and TLS included),
// the whole response (whatever the drip), and silence (the socket's idle timeout). Node's parser reads it,
// in its lenient mode and with headers up to Chromium's 256 KB; an answer Node still refuses is read again
// by the tolerant reader (http-lenient.ts), over a connection of its own, when the method is safe to send
// twice. What was read when a deadline hit mid-body is returned, marked as cut short: a page is judged on
// what arrived, as a browser shows what arrived.
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';

import { pinnedLookup } from '../target-policy.ts';
import { armDeadlines } from './http-deadlines.ts';
import type { Exchange, ExchangeInput } from './http-deadlines.ts';
import { HttpProtocolError } from './http-errors.ts';
import { contentLengths, framing, maxHeaderBytes, readHead } from './http-head.ts';
import type { CutShort, LenientAnswer } from './http-lenient.ts';
import { rawExchange } from './http-raw.ts';
import { inertText } from './inert-text.ts';
import { ScanStoppedError } from './scan-stopped.ts';

/** Methods whose second sending changes nothing on the target (what the tolerant reader may resend). */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Records the bytes of a response head as they come off the socket, for the notes Node does not give. */
class HeadCapture {
  private readonly chunks: Buffer[] = [];
  private length = 0;
  /** The last bytes seen, so that a blank line split across two chunks is found. */
  private tail = Buffer.alloc(0);
  private socket: net.Socket | null = null;
  private readonly onData = (chunk: Buffer) => {
    const piece = chunk.subarray(0, maxHeaderBytes + 4 - this.length);
    this.chunks.push(piece);
    this.length += piece.length;
    const probe = Buffer.concat([this.tail, piece]);
    this.tail = probe.subarray(-3);
    if (this.length > maxHeaderBytes || probe.includes('\n\r\n') || probe.includes('\n\n')) {
      this.detach();
    }
  };

  attach(socket: net.Socket): void {
    this.socket = socket;
    socket.on('data', this.onData);
  }

  detach(): void {
    this.socket?.removeListener('data', this.onData);
    this.socket = null;
  }

  /** What was wrong with the head that Node's lenient parser overlooked. */
  notes(url: string, method: string): string[] {
    this.detach();
    try {
      const bytes = Buffer.concat(this.chunks);
      const head = readHead(bytes, url);
      return head ? [...head.notes, ...framing(head, method, contentLengths(bytes, head)).notes] : [];
    } catch {
      return [];
    }
  }
}

function nodeExchange(input: ExchangeInput): Promise<Exchange> {
  const { url, method, limits } = input;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let response: http.IncomingMessage | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const capture = new HeadCapture();
    let broken: string | null = null;
    const answer = (whole?: CutShort): LenientAnswer => {
      const cutShort = broken ? 'malformed' : whole;
      const notes = [...capture.notes(url.href, method), ...(broken ? [broken] : [])];
      const announced = Number(response!.headers['content-length']);
      if (cutShort && cutShort !== 'size' && cutShort !== 'deadline' && size < announced) {
        notes.push(`body ended after ${size} of ${announced} announced bytes`);
      }
      return {
        status: response!.statusCode ?? 0,
        headers: response!.headers,
        body: Buffer.concat(chunks),
        notes,
        ...(cutShort ? { cutShort } : {}),
      };
    };
    const settle = armDeadlines(
      input,
      resolve,
      reject,
      (reason) => (response ? answer(reason) : null),
      // Whatever ended the exchange, a socket with bytes left unread must not serve the next request.
      () => {
        capture.detach();
        request?.destroy();
      },
    );
    let request: http.ClientRequest | undefined;
    try {
      request = transport.request(
        url,
        {
          method,
          headers: input.headers,
          agent: input.agent,
          lookup: pinnedLookup(input.target),
          timeout: limits.idleMs,
          maxHeaderSize: maxHeaderBytes,
          // Browsers read bare LF line ends and Transfer-Encoding beside Content-Length; so must we.
          insecureHTTPParser: true,
        },
        (res) => {
          response = res;
          settle.headersArrived();
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk.subarray(0, Math.max(0, input.maxBody - size)));
            size += chunk.length;
            // Guard: a huge or endless body must not exhaust memory; what we have is enough to judge.
            if (size > input.maxBody) {
              settle.done(answer('size'));
            }
          });
          res.on('end', () => settle.done(answer()));
          // A server that closes before the Content-Length it announced (a middleware that rewrote the body)
          // still sent a page: browsers and curl show what arrived, and so do we.
          res.on('error', () => settle.done(answer('closed')));
        },
      );
    } catch (error) {
      // A header value Node refuses to send (a control character in a probe) fails this request only.
      settle.fail(error);
      return;
    }
    request.on('socket', (socket) => capture.attach(socket));
    request.on('timeout', () => settle.idle());
    request.on('error', (error) => {
      const parse = parseError(error);
      if (!response || (parse && safeMethods.has(method))) {
        // Nothing read yet, or an answer the tolerant reader can read whole by asking again (exchange).
        settle.fail(error);
      } else if (parse) {
        // Framing that breaks mid-body (a bad chunk size) on a request not sent twice: the response ends
        // or errors with what came before the break, and that is the page.
        broken = `invalid body framing: ${inertText(parse.reason ?? parse.message, 120)}`;
      } else {
        settle.done(answer('closed'));
      }
    });
    request.end(input.body);
  });
}

/** A parser error of Node's (llhttp): `HPE_…` codes. */
function parseError(error: unknown): (Error & { code: string; reason?: string; rawPacket?: Buffer }) | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('HPE_') ? (error as Error & { code: string }) : null;
}

/** One request and its answer, read as browsers read it; throws typed errors for what no one can read. */
export async function exchange(input: ExchangeInput): Promise<Exchange> {
  if (input.signal?.aborted) {
    throw new ScanStoppedError('aborted');
  }
  try {
    return await nodeExchange(input);
  } catch (error) {
    const parse = parseError(error);
    if (!parse) {
      throw error;
    }
    const excerpt = inertText(parse.rawPacket?.subarray(0, 40).toString('latin1') ?? '', 40);
    if (parse.code === 'HPE_HEADER_OVERFLOW') {
      throw new HttpProtocolError(
        input.url.href,
        `response headers larger than ${maxHeaderBytes / 1024} KB, more than browsers accept`,
        '',
      );
    }
    if (!safeMethods.has(input.method)) {
      throw new HttpProtocolError(input.url.href, inertText(parse.reason ?? parse.message, 120), excerpt);
    }
    await input.beforeResend();
    return rawExchange(input);
  }
}
