// Stack traces in the injection probes' answers: a POST form whose handler throws on input it cannot read
// (a calculator, as Express prints an uncaught error outside production) is reported once, at its field; a
// page that shows a trace as its content whatever it gets is not; a place already reported is left alone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Finding } from '../../../../shared/findings.ts';
import { HttpClient } from '../../core/http-client.ts';
import { TargetPolicy } from '../../target-policy.ts';
import type { Endpoint } from '../crawl.ts';
import { injectionFindings } from './index.ts';

const nodeTrace = (message: string) =>
  `<!DOCTYPE html><pre>Error: ${message}<br> &nbsp; &nbsp;at evaluate (/srv/app/node_modules/mathjs/lib/expression/parse.js:1512:11)<br> &nbsp; &nbsp;at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)</pre>`;

describe('stack traces in the injection answers', () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const value = new URLSearchParams(body).get('eqn') ?? '';
        if (req.url === '/calc') {
          // Numbers and operators only; anything else throws, and the trace goes out with a 500.
          return /^[\d\s+*/().-]+$/.test(value)
            ? res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>= ${value.length}</p>`)
            : res
                .writeHead(500, { 'content-type': 'text/html' })
                .end(nodeTrace(`Undefined symbol ${value.length}`));
        }
        if (req.url === '/debugging-guide') {
          // A page about debugging: a trace is its content, for every value.
          return res.writeHead(200, { 'content-type': 'text/html' }).end(nodeTrace('an example'));
        }
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const form = (path: string): Endpoint => ({ url: new URL(path, origin), method: 'POST', params: ['eqn'] });
  const run = async (known: (location: string) => boolean) => {
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    const findings: Finding[] = [];
    try {
      await injectionFindings(client, [form('/calc'), form('/debugging-guide'), form('/quiet')], {
        maxParams: 10,
        requestsLeft: 1000,
        sqlKnown: () => false,
        verboseKnown: known,
        onFinding: (f) => findings.push(f),
        onProgress: () => undefined,
      });
    } finally {
      client.close();
    }
    return findings.filter((f) => f.rule_id === 'web.error.verbose');
  };

  it('reports the failing form field once, and not a page whose content is a trace', async () => {
    const findings = await run(() => false);
    expect(findings.map((f) => f.location)).toEqual([`POST ${origin}/calc?eqn=`]);
    expect(findings[0]!.evidence).toMatch(/^eqn=".*" \(an injection probe\) answered HTTP 500; stack trace/);
  }, 180_000);

  it('leaves a place already reported alone', async () => {
    expect(await run((location) => location.endsWith('/calc?eqn='))).toEqual([]);
  }, 180_000);
});
