import { describe, expect, it } from 'vitest';

import { hashFormat, passwordsIn, personalData, redactEmail } from './personal-data.ts';

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

describe('passwordsIn', () => {
  const bcrypt = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

  it('finds whole user records with their hashes, naming the formats and never a value', () => {
    const found = passwordsIn({
      success: true,
      users: [
        { id: 1, name: 'Admin', login: 'admin', email: 'admin@dvna.test', password: bcrypt, role: 'admin' },
        { id: 2, name: 'User', login: 'user', email: 'user@dvna.test', password: bcrypt, role: null },
        { id: 3, username: 'carol', password_hash: '5f4dcc3b5aa765d61d8327deb882cf99' },
      ],
    });
    expect(found).toEqual({
      evidence: '3 account records with password, password_hash (2 bcrypt, 1 MD5 (hex); values not shown)',
      accounts: 3,
    });
    expect(found?.evidence).not.toContain('N9qo8');
    expect(passwordsIn({ email: 'me@x.test', passwd: 'hunter2hunter2' })?.evidence).toMatch(/plain text\?/);
  });

  it.each([
    ['a masked password', { email: 'me@x.test', password: '********' }],
    ['a redacted one', { username: 'me', password: '[REDACTED]' }],
    ['a policy text', { username: 'me', password: 'at least 12 characters' }],
    ['a password field of no person', { settings: { password: bcrypt } }],
    ['an API token of the account (not a password)', { username: 'me', api_key: 'b7f3c9e1a4d8f2b6c0e5' }],
  ])('does not report %s', (_, json) => {
    expect(passwordsIn(json)).toBeNull();
  });

  it('names the hash formats by their shape', () => {
    expect(hashFormat(bcrypt)).toBe('bcrypt');
    expect(hashFormat('$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA')).toBe('Argon2');
    expect(hashFormat('pbkdf2_sha256$600000$salt$hash=')).toBe('PBKDF2');
    expect(hashFormat('{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=')).toBe('LDAP');
    expect(hashFormat('a94a8fe5ccb19ba61c4c0873d391e987982fbbd3')).toBe('SHA-1 (hex)');
    expect(hashFormat('correcthorse')).toBeNull();
  });
});
