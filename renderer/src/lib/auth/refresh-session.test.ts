import {
  AuthApiError,
  AuthRefreshDiscardedError,
  AuthRetryableFetchError,
  type Session,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';

import { isRetryableRefreshError, type RefreshingAuth, refreshOrSignOut } from './refresh-session.ts';

const session = { access_token: 'a', refresh_token: 'r', expires_at: 1 } as Session;

function auth(current: Session | null, error: Error | null) {
  const calls: string[] = [];
  const client: RefreshingAuth = {
    getSession: () => Promise.resolve({ data: { session: current } }),
    refreshSession: () => {
      calls.push('refresh');
      return Promise.resolve({ error: error as never });
    },
    signOut: (options) => {
      calls.push(`signOut:${options.scope}`);
      return Promise.resolve({ error: null });
    },
  };
  return { client, calls };
}

describe('refreshOrSignOut', () => {
  it('does nothing without a session', async () => {
    const { client, calls } = auth(null, null);
    expect(await refreshOrSignOut(client)).toBe('no-session');
    expect(calls).toEqual([]);
  });

  it('refreshes a session', async () => {
    const { client, calls } = auth(session, null);
    expect(await refreshOrSignOut(client)).toBe('refreshed');
    expect(calls).toEqual(['refresh']);
  });

  it('signs this device out when the refresh token is refused (revoked elsewhere)', async () => {
    const refused = new AuthApiError(
      'Invalid Refresh Token: Refresh Token Not Found',
      400,
      'refresh_token_not_found',
    );
    const { client, calls } = auth(session, refused);
    expect(await refreshOrSignOut(client)).toBe('signed-out');
    expect(calls).toEqual(['refresh', 'signOut:local']);
  });

  it('keeps the session after a network or server failure, or a refresh another change overtook', async () => {
    for (const error of [
      new AuthRetryableFetchError('Failed to fetch', 0),
      new AuthRefreshDiscardedError(),
    ]) {
      const { client, calls } = auth(session, error);
      expect(await refreshOrSignOut(client)).toBe('kept');
      expect(calls).toEqual(['refresh']);
    }
    expect(isRetryableRefreshError(new AuthApiError('x', 503, undefined))).toBe(false);
  });
});
