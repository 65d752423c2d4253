// The tolerant reader's own exchange: the request sent again over a connection of its own (closed after
// the answer), its bytes read by LenientReader under the same deadlines.
import net from 'node:net';
import tls from 'node:tls';

import { pinnedLookup } from '../target-policy.ts';
import { armDeadlines } from './http-deadlines.ts';
import type { Exchange, ExchangeInput } from './http-deadlines.ts';
import { LenientReader } from './http-lenient.ts';

/** The request as bytes, for the tolerant reader's own connection (which it closes after the answer). */
function serialise(input: ExchangeInput): string {
  const { url, headers, body } = input;
  const lines = [`${input.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^(host|connection|content-length)$/i.test(name)) {
      lines.push(`${name}: ${value.replace(/[\r\n]/g, ' ')}`);
    }
  }
  lines.push('connection: close');
  if (body !== undefined) {
    lines.push(`content-length: ${Buffer.byteLength(body)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

export function rawExchange(input: ExchangeInput): Promise<Exchange> {
  const { url } = input;
  return new Promise((resolve, reject) => {
    const reader = new LenientReader(url.href, input.method, input.maxBody);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const options = { host, port, lookup: pinnedLookup(input.target) };
    const socket =
      url.protocol === 'https:'
        ? tls.connect({
            ...options,
            ...(net.isIP(host) ? {} : { servername: host }),
            rejectUnauthorized: false,
            ALPNProtocols: ['http/1.1'],
          })
        : net.connect(options);
    const settle = armDeadlines(
      input,
      resolve,
      reject,
      (reason) => (reader.hasHead ? reader.cut(reason) : null),
      () => socket.destroy(),
    );
    socket.setTimeout(input.limits.idleMs, () => settle.idle());
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        settle.fail(error);
        return;
      }
      if (reader.hasHead) {
        settle.headersArrived();
      }
      if (reader.answer) {
        settle.done(reader.answer);
      }
    });
    const ended = () => {
      try {
        settle.done(reader.end());
      } catch (error) {
        settle.fail(error);
      }
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', (error) => (reader.hasHead ? ended() : settle.fail(error)));
    socket.write(serialise(input));
  });
}
