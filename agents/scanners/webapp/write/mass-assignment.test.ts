import { describe, expect, it } from 'vitest';

import { UnsecuredJWT } from 'jose';

import { accountIn, keptPrivileges } from './mass-assignment.ts';

describe('mass assignment: what counts as a privilege kept', () => {
  it('names the privileged fields an account shows, with the control account’s value beside', () => {
    expect(
      keptPrivileges(
        { id: 3, email: 'm@example.com', role: 'admin', isAdmin: 'true', admin: false },
        { id: 2, email: 'c@example.com', role: 'customer', isAdmin: false },
      ),
    ).toEqual([
      { field: 'role', value: 'admin', controlValue: 'customer' },
      { field: 'isAdmin', value: 'true', controlValue: false },
    ]);
  });

  it('takes nothing from an account that shows none, or other roles', () => {
    expect(keptPrivileges(null, null)).toEqual([]);
    expect(keptPrivileges({ role: 'customer', isAdmin: false, is_admin: 0 }, null)).toEqual([]);
    expect(keptPrivileges({ role: 'administrator-in-training' }, null)).toEqual([]);
  });

  it('leaves the control value out when the control shows no such field (an echo proves nothing)', () => {
    expect(keptPrivileges({ role: 'admin' }, { email: 'c@example.com' })).toEqual([
      { field: 'role', value: 'admin' },
    ]);
  });

  it('reads the account from the answer’s JSON, or from the claims of a token it carries', () => {
    const m = 'vigil-marker-eeeeeeeeeeee';
    expect(
      accountIn({ status: 'success', data: { id: 2, email: `${m}@example.com`, role: 'admin' } }, m),
    ).toEqual({
      id: 2,
      email: `${m}@example.com`,
      role: 'admin',
    });
    const token = new UnsecuredJWT({ sub: '2', email: `${m}@example.com`, role: 'admin' }).encode();
    expect(accountIn({ authentication: { token } }, m)).toMatchObject({ role: 'admin' });
    expect(accountIn({ token: 'not.a.token' }, m)).toBeNull();
    expect(accountIn({ token }, 'vigil-marker-ffffffffffff')).toBeNull();
  });
});
