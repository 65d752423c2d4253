// The every-method error probe: which methods it sends to a made-up path, that it never sends PUT (a server
// that stores whatever is PUT would keep our body), and that a made-up path accepting a request is sent
// nothing more.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpClient } from '../core/http-client.ts';
import { TargetPolicy } from '../target-policy.ts';
import { methodErrorFindings } from './error-pages.ts';

describe('methodErrorFindings', () => {
  let server: http.Server;
  let origin: URL;
  const asked: string[] = [];
  beforeAll(async () => {
    // Under /store/ every non-GET request is taken (201), as a file store or WebDAV share would; elsewhere
    // a malformed body gets a 400 with a Node stack trace, as Express's finalhandler prints outside production.
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        asked.push(`${req.method} ${req.url}`);
        if (req.method === 'GET') {
          res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        } else if (req.url?.startsWith('/store/')) {
          res.writeHead(201, { 'content-type': 'text/plain' }).end('stored');
        } else {
          res
            .writeHead(400, { 'content-type': 'text/html' })
            .end(
              '<pre>SyntaxError: Unexpected end of JSON input<br> &nbsp; &nbsp;at JSON.parse (&lt;anonymous&gt;)<br> &nbsp; &nbsp;at parse (/srv/app/node_modules/body-parser/lib/types/json.js:92:19)</pre>',
            );
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends POST, PATCH and DELETE, never PUT, and nothing more to a path that accepted one', async () => {
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    const findings = await methodErrorFindings(client, origin, [new URL('/store/', origin)], () => undefined);
    expect(asked.some((a) => a.startsWith('PUT '))).toBe(false);
    const atRoot = asked.filter((a) => /^\w+ \/vigil-[0-9a-f]{8}$/.test(a)).map((a) => a.split(' ')[0]);
    expect(atRoot).toEqual(['GET', 'POST', 'PATCH', 'DELETE']);
    // The store took the first POST: no PATCH or DELETE follows it there.
    const inStore = asked.filter((a) => a.includes('/store/vigil-')).map((a) => a.split(' ')[0]);
    expect(inStore).toEqual(['GET', 'POST']);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.rule_id).toBe('web.error.verbose');
    expect(findings[0]!.evidence).toMatch(/POST \/vigil-[0-9a-f]{8} \(HTTP 400\)/);
    expect(findings[0]!.evidence).not.toMatch(/\/store\//);
  });
});
