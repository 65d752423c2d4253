import type { RunningStack } from '../../server/stack.ts';
import { client } from './stack.ts';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** An unmodified supabase-js client signed in as this user (a real session from /auth/v1). */
  supabase: ReturnType<typeof client>;
  accessToken: string;
}

/**
 * A confirmed user created through the admin API and signed in with the password grant, so every service
 * sees a real session (auth.sessions row, refresh token), exactly as the app's users have.
 */
export async function signedInUser(
  stack: RunningStack,
  email: string,
  metadata: Record<string, string> = {
    full_name: 'Test User',
    company_name: 'Test Co',
    industry_type: 'Technology',
  },
): Promise<TestUser> {
  const password = 'correct-horse-battery-1';
  const admin = client(stack, 'service_role');
  const created = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: metadata,
  });
  if (created.error || !created.data.user) {
    throw new Error(`createUser ${email}: ${created.error?.message ?? 'no user'}`);
  }
  const supabase = client(stack);
  const signedIn = await supabase.auth.signInWithPassword({ email, password });
  if (signedIn.error || !signedIn.data.session) {
    throw new Error(`sign-in ${email}: ${signedIn.error?.message ?? 'no session'}`);
  }
  return {
    id: created.data.user.id,
    email,
    password,
    supabase,
    accessToken: signedIn.data.session.access_token,
  };
}
