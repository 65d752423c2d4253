import type { AuthChangeEvent, SupabaseClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { followSecondFactor } from './realtime-token.ts';

function fakeClient() {
  let listener: ((event: AuthChangeEvent) => void) | undefined;
  const unsubscribe = vi.fn();
  const setAuth = vi.fn(() => Promise.resolve());
  const client = {
    auth: {
      onAuthStateChange: (fn: (event: AuthChangeEvent) => void) => {
        listener = fn;
        return { data: { subscription: { unsubscribe } } };
      },
    },
    realtime: { setAuth },
  } as unknown as Pick<SupabaseClient, 'auth' | 'realtime'>;
  return { client, setAuth, unsubscribe, emit: (event: AuthChangeEvent) => listener?.(event) };
}

describe('followSecondFactor', () => {
  afterEach(() => vi.useRealTimers());

  it('hands realtime the new token after the second factor, outside the auth callback', () => {
    vi.useFakeTimers();
    const { client, setAuth, emit } = fakeClient();
    followSecondFactor(client);
    emit('MFA_CHALLENGE_VERIFIED');
    expect(setAuth).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(setAuth).toHaveBeenCalledOnce();
    expect(setAuth).toHaveBeenCalledWith();
  });

  it('leaves the events supabase-js handles itself alone, and stops when asked', () => {
    vi.useFakeTimers();
    const { client, setAuth, unsubscribe, emit } = fakeClient();
    const stop = followSecondFactor(client);
    for (const event of ['SIGNED_IN', 'TOKEN_REFRESHED', 'SIGNED_OUT', 'USER_UPDATED'] as const) {
      emit(event);
    }
    vi.runAllTimers();
    expect(setAuth).not.toHaveBeenCalled();
    stop();
    expect(unsubscribe).toHaveBeenCalledOnce();
  });
});
