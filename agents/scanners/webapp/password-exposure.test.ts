import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../core/http-client.ts';
import type { ApiCall } from './browser/api-calls.ts';
import type { Page } from './crawl.ts';
import { passwordExposureFindings } from './password-exposure.ts';

const origin = 'http://dvna.test';
const bcrypt = '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
const users = JSON.stringify({
  success: true,
  users: [
    { id: 1, name: 'Ada', login: 'admin', email: 'admin@dvna.test', password: bcrypt, role: 'admin' },
    { id: 2, name: 'Ursula', login: 'user', email: 'user@dvna.test', password: bcrypt, role: null },
  ],
});
const answer = (path: string, body: string, type = 'application/json; charset=utf-8'): HttpResponse => ({
  url: `${origin}${path}`,
  status: 200,
  headers: { 'content-type': type },
  body,
  redirects: [],
});
const call = (path: string, phase: ApiCall['phase'], body = users): ApiCall => ({
  method: 'GET',
  url: new URL(path, origin),
  headers: { cookie: 'connect.sid=s%3Aabc' },
  body: null,
  bodyShape: { type: 'none', fields: [] },
  response: answer(path, body),
  phase,
});
const page = (path: string, body: string, type?: string): Page => ({
  url: new URL(path, origin),
  response: answer(path, body, type),
  facts: null,
  depth: 1,
});

describe('passwordExposureFindings', () => {
  it('reports the users API a logged-in session gets, once per place, redacted', () => {
    const findings = passwordExposureFindings(
      [call('/app/admin/usersapi', 'session'), call('/app/admin/usersapi', 'session')],
      [],
      true,
    );
    expect(findings.map((f) => [f.rule_id, f.location])).toEqual([
      ['web.api.password-hashes', `${origin}/app/admin/usersapi`],
    ]);
    expect(findings[0]!.evidence).toBe(
      'GET /app/admin/usersapi, in the login session: 2 account records with password (2 bcrypt; values not shown)',
    );
  });

  it('reads JSON pages of a logged-in crawl, never HTML, and nothing of a logged-out one', () => {
    const pages = [page('/api/users.json', users), page('/about', `<pre>${users}</pre>`, 'text/html')];
    expect(passwordExposureFindings([], pages, true).map((f) => f.location)).toEqual([
      `${origin}/api/users.json`,
    ]);
    expect(passwordExposureFindings([], pages, false)).toEqual([]);
  });

  it("leaves calls the app also made before logging in (anyone's: personal data's) and answers without passwords", () => {
    const calls = [
      call('/api/users', 'anonymous'),
      call('/api/users', 'session'),
      call(
        '/api/me',
        'session',
        JSON.stringify({ login: 'user', email: 'user@dvna.test', password: '********' }),
      ),
    ];
    expect(passwordExposureFindings(calls, [], true)).toEqual([]);
  });
});
