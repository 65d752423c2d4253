// The reset-link check against a server that opens its new-password form for md5(login), as DVNA's resetPw
// does, and against two that must stay silent: one that checks a random token it stored, one whose form
// opens for any token (the check happens when it is submitted).
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpClient } from '../core/http-client.ts';
import { TargetPolicy } from '../target-policy.ts';
import { derivedTokens, resetTokenFindings } from './reset-tokens.ts';

const form =
  '<form method="post"><input type="password" name="password"><input type="password" name="cpassword"></form>';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function site(opens: (login: string, token: string) => boolean): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/resetpw') {
      const login = url.searchParams.get('login') ?? '';
      const token = url.searchParams.get('token') ?? '';
      return opens(login, token)
        ? res.writeHead(200, { 'content-type': 'text/html' }).end(form)
        : res.writeHead(302, { location: '/forgotpw' }).end();
    }
    if (url.pathname === '/forgotpw') {
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<form method="post"><input name="login"></form>');
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Cannot GET</h1>');
  });
}

const servers = {
  md5: site((login, token) => login === 'user' && token === md5(login)),
  stored: site((login, token) => login === 'user' && token === 'b4c1e2f7a9d03e6f8a1b2c3d4e5f6a7b'),
  anyToken: site((login) => login === 'user'),
};
const origins: Record<string, URL> = {};

beforeAll(async () => {
  for (const [name, server] of Object.entries(servers)) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origins[name] = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  }
});
afterAll(async () => {
  for (const server of Object.values(servers)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const scan = async (name: keyof typeof servers) => {
  const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
  try {
    return await resetTokenFindings(client, origins[name]!, [], 'user', () => undefined);
  } finally {
    client.close();
  }
};

describe('predictable reset tokens', () => {
  it('finds a reset page that opens for md5(login), naming how the token is made', async () => {
    const findings = await scan('md5');
    expect(findings.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.auth.predictable-reset-token', `${origins.md5!.origin}/resetpw`],
    ]);
    expect(findings[0]!.evidence).toMatch(
      /login=<the scan's login>&token=md5\(login\) opened a new-password form/,
    );
  }, 120_000);

  it('stays silent on a stored random token and on a form that opens for any token', async () => {
    expect(await scan('stored')).toEqual([]);
    expect(await scan('anyToken')).toEqual([]);
    // About a hundred requests each: sized for a loaded machine, not for time.
  }, 240_000);

  it('derives the usual tokens', () => {
    expect(derivedTokens('user').map((t) => t.how)).toEqual([
      'md5',
      'sha1',
      'sha256',
      'base64',
      'base64url',
      'hex',
      'the name itself',
    ]);
    expect(derivedTokens('user')[0]!.token).toBe('ee11cbb19052e40b07aac0ca060c23ee');
  });
});
