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
import { exchangeCodeOnce } from '../../../lib/auth/exchange-code.ts';
import { supabase } from '../../../lib/supabase.ts';

/** Resolves the recovery session: exchanges the link's code if present, then asks for the session. */
async function recoverySession(): Promise<boolean> {
  const code = new URLSearchParams(window.location.search).get('code');
  if (code) {
    await exchangeCodeOnce(code);
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }
  const { data } = await (await supabase()).auth.getSession();
  return data.session !== null;
}

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
      (ok) => {
        if (active) {
          if (ok) {
            setReady(true);
          } else {
            noSession();
          }
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
