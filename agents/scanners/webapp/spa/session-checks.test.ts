// The forged-token check on an app that checks its tokens two ways: one route looks the exact token up
// among those it issued (any forgery is refused there), another checks only the signature and takes
// "alg": "none" at its word, as old JWT libraries did. The check must not stop at the first route.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HttpResponse, HttpSession } from '../../core/http-client.ts';
import { HttpClient } from '../../core/http-client.ts';
import { TargetPolicy } from '../../target-policy.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import { sessionFindings } from './session-checks.ts';

const key = randomBytes(32);
const b64 = (text: string) => Buffer.from(text).toString('base64url');
const head = b64('{"alg":"HS256","typ":"JWT"}');
const body = b64('{"sub":"7","role":"customer"}');
const token = `${head}.${body}.${createHmac('sha256', key).update(`${head}.${body}`).digest('base64url')}`;

/** What the signature-only route takes: a valid HS256 signature, or any token that says "none". */
function signatureOnly(bearer: string): boolean {
  const [h = '', p = '', s = ''] = bearer.split('.');
  const alg = (JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string }).alg;
  return alg === 'none' || s === createHmac('sha256', key).update(`${h}.${p}`).digest('base64url');
}

describe('forged tokens', () => {
  let server: http.Server;
  let origin: URL;
  const answers: Record<string, string> = {
    '/api/addresses': '{"addresses":[{"id":1,"city":"Utrecht"}]}',
    '/api/complaints': '{"complaints":[{"id":3,"message":"late"}]}',
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const path = req.url ?? '';
      // /api/addresses looks the token up among those issued; /api/complaints checks the signature only.
      const ok = path === '/api/addresses' ? bearer === token : bearer !== '' && signatureOnly(bearer);
      if (!(path in answers) || !ok) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answers[path]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tries more than the first endpoint, and names the one that took a forgery', async () => {
    const session: HttpSession = {
      headers: (url): Record<string, string> =>
        url.origin === origin.origin ? { authorization: `Bearer ${token}` } : {},
      refuses: () => null,
      renewed: () => Promise.resolve(false),
    };
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    client.useSession(session);
    const call = (path: string): ApiCall => {
      const url = new URL(path, origin);
      const response: HttpResponse = {
        url: url.href,
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: answers[path]!,
        redirects: [],
      };
      return {
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        body: null,
        bodyShape: { type: 'none', fields: [] },
        response,
        phase: 'session',
      };
    };
    const findings = await sessionFindings(
      client,
      session,
      [call('/api/addresses'), call('/api/complaints')],
      null,
      () => undefined,
    );
    expect(findings.map((f) => [f.rule_id, new URL(f.location).pathname])).toEqual([
      ['web.auth.jwt-unverified', '/api/complaints'],
    ]);
    expect(findings[0]!.evidence).toContain('with "alg": "none" and no signature');
  });
});
