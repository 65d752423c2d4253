import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { RunningStack } from '../../../server/stack.ts';
import { setAuthSettings } from '../../../server/auth/settings.ts';
import { inStage, requires } from '../../helpers/requirements.ts';
import { client, startTestStack } from '../../helpers/stack.ts';
import { latestMail, openLink, uniqueEmail, verifyLink } from '../../helpers/auth-support.ts';

/** The core auth flows on a real PostgreSQL (scripts/test-postgres.sh sets VIGIL_TEST_DATABASE_URL). */
const databaseUrl = process.env.VIGIL_TEST_DATABASE_URL;

describe(
  'auth on PostgreSQL',
  requires(databaseUrl ? null : inStage('postgres', 'needs a PostgreSQL server (VIGIL_TEST_DATABASE_URL)')),
  () => {
    let stack: RunningStack;
    beforeAll(async () => {
      stack = await startTestStack({ databaseUrl });
      setAuthSettings(stack.ctx.config, { refreshReuseIntervalSeconds: 0 });
    });
    afterAll(() => stack.close());

    it('signs up, confirms by link, exchanges the code, rotates, verifies TOTP and signs out', async () => {
      const supabase = client(stack);
      const email = uniqueEmail('pg');
      expect(
        (await supabase.auth.signUp({ email, password: 'secret-pass', options: { data: { n: 1 } } })).error,
      ).toBeNull();
      const { location } = await openLink(verifyLink(await latestMail(stack, email)));
      const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '');
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.user?.user_metadata.n).toBe(1);
      const old = exchanged.data.session?.refresh_token ?? '';
      expect((await supabase.auth.refreshSession()).error).toBeNull();
      expect((await client(stack).auth.refreshSession({ refresh_token: old })).error?.code).toBe(
        'refresh_token_already_used',
      );

      const again = client(stack);
      expect((await again.auth.signInWithPassword({ email, password: 'secret-pass' })).error).toBeNull();
      const factor = (await again.auth.mfa.enroll({ factorType: 'totp' })).data;
      if (!factor || factor.type !== 'totp') {
        throw new Error('no factor');
      }
      const code = new TOTP({ secret: Secret.fromBase32(factor.totp.secret) }).generate();
      expect((await again.auth.mfa.challengeAndVerify({ factorId: factor.id, code })).error).toBeNull();
      expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
      expect((await again.auth.signOut()).error).toBeNull();
    });
  },
);
