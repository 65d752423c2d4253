// A port's first answer, read cheaply so that many ports can be compared: what it says unasked, else what
// it answers to an HTTP request on the same connection, and, beside it, whether it answers a TLS
// ClientHello. Two connections and about three first-byte waits per port, against a greeting wait and ten
// probes for a full identification.
import { createHash } from 'node:crypto';
import net from 'node:net';

import { probeHello } from '../core/tls-probe.ts';
import { suiteName, suiteCodes } from '../core/tls-suites.ts';
import { mayConnect } from './connection-meter.ts';
import { identifyGreeting } from './greetings.ts';
import { printable } from './printable-bytes.ts';
import { httpGet } from './wire.ts';

export interface FirstAnswer {
  port: number;
  /** What the port answered, comparable across ports: equal signatures are the same answer. */
  signature: string;
  /** The answer in a few printable words, for evidence. */
  summary: string;
  /**
   * The greeting came only after our request (a busy host, or a busy scanner): what follows it in the
   * signature may be the service's answers to that request, so the port is worth a second look.
   */
  late?: true;
}

export interface LookOptions {
  address: string;
  host: string;
  port: number;
  firstByteMs: number;
  signal?: AbortSignal;
  /** Taken before the TLS probe's connection (the host's budget). */
  pace?: () => Promise<void>;
}

/** Enough of an answer to tell answers apart. */
const maxBytes = 4096;
export const SILENT = 'silent';

/** The clear-text half: connect, wait for a greeting, else send an HTTP request and wait for its answer. */
function clearText(options: LookOptions): Promise<{ greeting: Buffer; reply: Buffer }> {
  if (options.signal?.aborted || !mayConnect()) {
    return Promise.resolve({ greeting: Buffer.alloc(0), reply: Buffer.alloc(0) });
  }
  return new Promise((resolve) => {
    let greeting = Buffer.alloc(0);
    let reply = Buffer.alloc(0);
    let asked = false;
    const socket = net.connect({ host: options.address, port: options.port });
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', finish);
      socket.destroy();
      resolve({ greeting, reply });
    };
    const ask = () => {
      asked = true;
      socket.write(httpGet(options.host));
      timer = setTimeout(finish, options.firstByteMs * 2);
    };
    let timer = setTimeout(finish, options.firstByteMs + 2000);
    // Guard: a peer dripping bytes ends with the rest (the idle wait restarts on every byte).
    const deadline = setTimeout(finish, options.firstByteMs * 4 + 2000);
    socket.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(ask, options.firstByteMs);
    });
    socket.on('data', (chunk: Buffer) => {
      clearTimeout(timer);
      if (asked) {
        reply = Buffer.concat([reply, chunk]).subarray(0, maxBytes);
      } else {
        greeting = Buffer.concat([greeting, chunk]).subarray(0, maxBytes);
      }
      timer = setTimeout(finish, 120);
      if (greeting.length + reply.length >= maxBytes) {
        finish();
      }
    });
    socket.once('error', finish);
    socket.once('close', finish);
    options.signal?.addEventListener('abort', finish, { once: true });
  });
}

const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

/**
 * An HTTP answer as comparable words: status line, Server header and a digest of the body. Headers that
 * change from one answer to the next (Date, cookies) are left out, so one server answers alike on every
 * port and distinct applications do not.
 */
function httpSignature(reply: Buffer): { signature: string; summary: string } | null {
  const text = reply.toString('latin1');
  const status = /^HTTP\/\d(?:\.\d)? \d{3}[^\r\n]*/.exec(text)?.[0];
  if (!status) {
    return null;
  }
  const split = text.search(/\r?\n\r?\n/);
  const head = split < 0 ? text : text.slice(0, split);
  const server = /^server:[ \t]*([^\r\n]*)/im.exec(head)?.[1] ?? '';
  // latin1 maps bytes one to one, so the text's offsets are the reply's.
  const body = split < 0 ? Buffer.alloc(0) : reply.subarray(split);
  const summary = printable(Buffer.from(`${status}${server ? ` (Server: ${server})` : ''}`, 'latin1'));
  return { signature: `http ${summary} ${digest(body)}`, summary: `HTTP: ${summary}` };
}

function clearTextSignature(greeting: Buffer, reply: Buffer, port: number): FirstAnswer | null {
  // A greeting late for its wait arrives after our request: it is still the service's greeting.
  const first = greeting.length > 0 ? greeting : reply;
  const known = first.length > 0 ? identifyGreeting(first, port) : null;
  if (known) {
    return {
      port,
      signature: `greeting ${known.banner}`,
      summary: `${known.name}: ${known.banner}`,
      ...(greeting.length > 0 ? {} : { late: true as const }),
    };
  }
  if (greeting.length > 0) {
    return {
      port,
      signature: `greeting ${digest(greeting)}`,
      summary: `greeting: ${printable(greeting, 80) || `${greeting.length} bytes, none printable`}`,
    };
  }
  if (reply.length > 0) {
    const http = httpSignature(reply);
    return http
      ? { port, ...http }
      : {
          port,
          signature: `reply ${digest(reply)}`,
          summary: `answer to an HTTP request: ${printable(reply, 80) || `${reply.length} bytes, none printable`}`,
        };
  }
  return null;
}

export async function quickLook(options: LookOptions): Promise<FirstAnswer> {
  const { port } = options;
  const [clear, tls] = await Promise.all([
    clearText(options),
    probeHello('TLSv1.2', suiteCodes(false), {
      address: options.address,
      port,
      serverName: options.host,
      timeoutMs: options.firstByteMs * 2,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.pace ? { pace: options.pace } : {}),
    }),
  ]);
  if (tls.accepted) {
    return {
      port,
      signature: `tls ${tls.version} ${tls.suite}`,
      summary: `TLS: ServerHello ${tls.version} choosing ${suiteName(tls.suite)}`,
    };
  }
  if (tls.reason === 'alert') {
    return { port, signature: `tls alert ${tls.alert}`, summary: `TLS: alert ${tls.alert} to a ClientHello` };
  }
  return (
    clearTextSignature(clear.greeting, clear.reply, port) ?? {
      port,
      signature: SILENT,
      summary: 'silent: no greeting, no answer to an HTTP request or a TLS ClientHello',
    }
  );
}
