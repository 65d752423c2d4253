import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';

import { authErrorMessage, TOASTS } from '../../../../../shared/messages.ts';
import { resetPasswordSchema, type ResetPasswordValues } from '../../../../../shared/validation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { AuthError } from '../../../features/auth/components/auth-error.tsx';
import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { needsSecondStep } from '../../../lib/auth/assurance.ts';
import { exchangeCodeOnce } from '../../../lib/auth/exchange-code.ts';
import { supabase } from '../../../lib/supabase.ts';

/**
 * Resolves the recovery session: exchanges the link's code if present, then asks for the session. A recovery
 * link proves the mailbox only: with a second factor the session must pass it too before the password may
 * change (the auth server refuses otherwise, as GoTrue does).
 */
async function recoverySession(): Promise<'ready' | 'second-step' | 'none'> {
  const code = new URLSearchParams(window.location.search).get('code');
  if (code) {
    await exchangeCodeOnce(code);
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }
  const { data } = await (await supabase()).auth.getSession();
  if (!data.session) {
    return 'none';
  }
  return (await needsSecondStep(data.session.access_token)) ? 'second-step' : 'ready';
}

/** Back here once the second factor is passed (/auth/mfa returns to `from`). */
const AFTER_SECOND_STEP = { replace: true, state: { from: { pathname: '/auth/reset-password' } } };

export function Component() {
  const navigate = useNavigate();
  const { updatePassword } = useAuth();
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    let active = true;
    const noSession = () => {
      // Without a recovery session the password cannot be changed: send the person to request a new link.
      toast({ ...TOASTS.resetNeedsSession, variant: 'destructive' });
      void navigate('/auth/forgot-password', { replace: true });
    };
    recoverySession().then(
      (state) => {
        if (!active) {
          return;
        }
        if (state === 'ready') {
          setReady(true);
        } else if (state === 'second-step') {
          void navigate('/auth/mfa', AFTER_SECOND_STEP);
        } else {
          noSession();
        }
      },
      () => active && noSession(),
    );
    return () => {
      active = false;
    };
  }, [navigate]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setError(null);
    try {
      await updatePassword(password);
      toast(TOASTS.passwordUpdated);
      await navigate('/dashboard', { replace: true });
    } catch (caught) {
      // A factor added meanwhile (in another browser, say): pass it first, then come back here.
      if ((caught as { code?: unknown }).code === 'insufficient_aal') {
        await navigate('/auth/mfa', AFTER_SECOND_STEP);
        return;
      }
      setError(authErrorMessage(caught));
    }
  });

  if (!ready) {
    return <FullPageSpinner />;
  }
  return (
    <AuthShell title="Set a New Password" description="Choose a new password for your account.">
      <form className="space-y-4" noValidate onSubmit={(event) => void onSubmit(event)}>
        <AuthError message={error} />
        <FormField id="reset-password" label="New Password" error={errors.password?.message}>
          <Input
            type="password"
            autoComplete="new-password"
            {...fieldAria('reset-password', errors.password?.message)}
            {...form.register('password')}
          />
        </FormField>
        <FormField id="reset-confirm" label="Confirm Password" error={errors.confirmPassword?.message}>
          <Input
            type="password"
            autoComplete="new-password"
            {...fieldAria('reset-confirm', errors.confirmPassword?.message)}
            {...form.register('confirmPassword')}
          />
        </FormField>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update Password'}
        </Button>
      </form>
    </AuthShell>
  );
}
