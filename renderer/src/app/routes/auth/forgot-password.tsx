import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { authErrorMessage } from '../../../../../shared/messages.ts';
import { forgotPasswordSchema, type ForgotPasswordValues } from '../../../../../shared/validation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { AuthError } from '../../../features/auth/components/auth-error.tsx';
import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';

export function Component() {
  const { requestPasswordReset } = useAuth();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setError(null);
    try {
      await requestPasswordReset(email);
      setSentTo(email);
    } catch (caught) {
      setError(authErrorMessage(caught));
    }
  });

  if (sentTo) {
    return (
      <AuthShell title="Password Reset Email Sent">
        <div className="space-y-6 text-center">
          <MailCheck className="mx-auto size-12 text-primary" aria-hidden />
          <p className="text-muted-foreground">
            If an account exists for <strong className="text-foreground">{sentTo}</strong>, you will receive a
            link to reset your password shortly.
          </p>
          <div className="flex flex-col gap-2">
            <Button
              variant="outline"
              onClick={() => {
                form.reset({ email: '' });
                setSentTo(null);
              }}
            >
              Send another email
            </Button>
            <Button variant="link" asChild>
              <Link to="/auth">Back to Sign In</Link>
            </Button>
          </div>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Reset Your Password" description="Enter your email and we'll send you a reset link.">
      <form className="space-y-4" noValidate onSubmit={(event) => void onSubmit(event)}>
        <AuthError message={error} />
        <FormField id="forgot-email" label="Email" error={errors.email?.message}>
          <Input
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            {...fieldAria('forgot-email', errors.email?.message)}
            {...form.register('email')}
          />
        </FormField>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Sending...' : 'Send Reset Link'}
        </Button>
        <p className="text-center text-sm">
          <Link to="/auth" className="text-primary hover:underline">
            Back to Sign In
          </Link>
        </p>
      </form>
    </AuthShell>
  );
}
