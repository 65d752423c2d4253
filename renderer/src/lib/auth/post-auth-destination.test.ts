import { describe, expect, it } from 'vitest';

import { postAuthDestination } from './post-auth-destination.ts';

describe('postAuthDestination', () => {
  it('defaults to /dashboard', () => {
    expect(postAuthDestination(undefined, null)).toEqual({ pathname: '/dashboard' });
    expect(postAuthDestination('junk', null)).toEqual({ pathname: '/dashboard' });
  });
  it('returns to the protected page that sent the visitor', () => {
    expect(
      postAuthDestination(
        { from: { pathname: '/dashboard/reports', search: '?tab=config', hash: '' } },
        null,
      ),
    ).toEqual({
      pathname: '/dashboard/reports',
      search: '?tab=config',
      hash: '',
    });
  });
  it('returns to agent selection with the roles from state or session storage', () => {
    expect(postAuthDestination({ from: 'agent-selection', selectedRoles: ['a', 'b'] }, null)).toEqual({
      pathname: '/dashboard/select-roles',
      state: { selectedRoles: ['a', 'b'] },
    });
    expect(postAuthDestination({ from: 'agent-selection' }, '["c"]').state).toEqual({ selectedRoles: ['c'] });
    expect(postAuthDestination({ from: 'agent-selection' }, '{broken').state).toEqual({ selectedRoles: [] });
  });
  it('refuses external, protocol-relative and auth-loop destinations', () => {
    for (const pathname of [
      '//evil.test/x',
      'https://evil.test',
      '/\\evil.test',
      '/auth',
      '/auth/callback',
      'javascript:alert(1)',
    ]) {
      expect(postAuthDestination({ from: { pathname } }, null)).toEqual({ pathname: '/dashboard' });
    }
    expect(postAuthDestination({ from: { pathname: '/dashboard', search: 'x', hash: 'y' } }, null)).toEqual({
      pathname: '/dashboard',
      search: '',
      hash: '',
    });
  });
});
