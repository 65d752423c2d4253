import { describe, expect, it } from 'vitest';

import { personalData, redactEmail } from './personal-data.ts';

describe('personalData', () => {
  it('reports people with roles, redacted', () => {
    const found = personalData({
      users: [
        { id: 1, email: 'alice.martin@acme.test', role: 'admin' },
        { id: 2, email: 'bob@acme.test', role: 'staff' },
      ],
    });
    expect(found).toEqual({
      evidence:
        '2 account records without authentication; e-mail addresses (a…@acme.test, b…@acme.test); roles (admin, staff)',
      credentials: false,
    });
  });

  it('reports a single person with a credential, naming the field but never the value', () => {
    const found = personalData({ username: 'maria', session_token: 'b7f3c9e1a4d8f2b6c0e5a9d3f7b1c4e8' });
    expect(found?.credentials).toBe(true);
    expect(found?.evidence).toMatch(/session_token \(1 value of 32 characters, not shown\)/);
    expect(found?.evidence).not.toMatch(/b7f3/);
  });

  it.each([
    ['a single contact address', { contact: 'sales@acme.test', phone: '+33 1 23 45 67 89' }],
    ['one account with a role', { email: 'me@acme.test', role: 'admin' }],
    ['a CSRF or anonymous session token', { csrfToken: 'a3f9c2e7b1d4a8f6', token: 'e2a6d0f4b8c3e7a1d5f9' }],
    ['commit authors with their hashes', [{ hash: '3f9c2a7e8b1d4c6f', author: { email: 'a@acme.test' } }]],
    ['people without roles or credentials', [{ email: 'a@acme.test' }, { email: 'b@acme.test' }]],
    ['no JSON object at all', 'alice@acme.test'],
  ])('does not report %s', (_, json) => {
    expect(personalData(json)).toBeNull();
  });

  it('redacts an e-mail address to its first letter and domain', () => {
    expect(redactEmail('chloe.weber@example.test')).toBe('c…@example.test');
  });
});
