import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { authErrorMessage, TOASTS } from '../../../../../shared/messages.ts';
import { signInSchema, type SignInValues } from '../../../../../shared/validation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { AuthError } from './auth-error.tsx';

export function SignInForm() {
  const { signIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await signIn(values);
      // The /auth guard sees the new session and moves on to the destination.
      toast(TOASTS.signedIn);
    } catch (caught) {
      setError(authErrorMessage(caught));
    }
  });

  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void onSubmit(event)}>
      <AuthError message={error} />
      <FormField id="signin-email" label="Email" error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          {...fieldAria('signin-email', errors.email?.message)}
          {...form.register('email')}
        />
      </FormField>
      <FormField id="signin-password" label="Password" error={errors.password?.message}>
        <Input
          type="password"
          autoComplete="current-password"
          {...fieldAria('signin-password', errors.password?.message)}
          {...form.register('password')}
        />
      </FormField>
      <div className="text-right text-sm">
        <Link to="/auth/forgot-password" className="text-primary hover:underline">
          Forgot your password?
        </Link>
      </div>
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
