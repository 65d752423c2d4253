import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../../server/stack.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { signedInUser } from '../../helpers/users.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** A real user with a real session: requireUser() checks it with /auth/v1/user. */
const signedInClient = (email: string) => signedInUser(stack, email);

type Invoked = { data: unknown; error: unknown };
const invoke = async (
  supabase: { functions: SupabaseClient['functions'] },
  body: unknown,
): Promise<Invoked> =>
  await supabase.functions.invoke('application-logger', { body: body as Record<string, unknown> });

const errorBody = async (error: unknown) => {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const res = (error as FunctionsHttpError).context as Response;
  return { status: res.status, body: (await res.json()) as { error: string; details?: { path: string }[] } };
};

describe('application-logger', () => {
  it('refuses callers without a user session', async () => {
    const { data, error } = await invoke(client(stack), { level: 'info', message: 'hello' });
    expect(data).toBeNull();
    const { status, body } = await errorBody(error);
    expect(status).toBe(401);
    expect(body.error).toMatch(/sign in required/i);
  });

  it('stores the entry for the caller, whatever user_id the body claims', async () => {
    const alice = await signedInClient('alice-logger@example.com');
    const mallory = await signedInClient('mallory-logger@example.com');
    const { data, error } = await invoke(mallory.supabase, {
      level: 'warning',
      message: 'scan slow',
      context: { scanId: 7 },
      user_id: alice.id,
      timestamp: '2026-01-02T03:04:05Z',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ success: true });
    const { rows } = await stack.ctx.db.query<{
      user_id: string;
      level: string;
      message: string;
      context: unknown;
    }>('select user_id, level::text, message, context from public.application_logs where id = $1', [
      (data as { id: string }).id,
    ]);
    expect(rows[0]).toEqual({
      user_id: mallory.id,
      level: 'warning',
      message: 'scan slow',
      context: { scanId: 7 },
    });
  });

  it('answers 400 for a bad level, an overlong message or an oversized context', async () => {
    const { supabase } = await signedInClient('bob-logger@example.com');
    const cases = [
      { level: 'debug', message: 'x' },
      { level: 'info', message: 'x'.repeat(2001) },
      { level: 'info', message: 'x', context: { blob: 'y'.repeat(17 * 1024) } },
      { level: 'info', message: 'x', context: ['not', 'an', 'object'] },
    ];
    for (const body of cases) {
      const { error } = await invoke(supabase, body);
      const res = await errorBody(error);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid request body');
    }
    const { error } = await invoke(supabase, 'not json');
    expect((await errorBody(error)).status).toBe(400);
  });
});
