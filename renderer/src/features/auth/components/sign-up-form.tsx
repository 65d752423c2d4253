import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';

import { INDUSTRIES } from '../../../../../shared/constants.ts';
import { authErrorMessage, TOASTS } from '../../../../../shared/messages.ts';
import { type SignUpInput, signUpSchema, type SignUpValues } from '../../../../../shared/validation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { optionsOf, SelectField } from '../../../components/ui/select-field.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { AuthError } from './auth-error.tsx';

export function SignUpForm() {
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<SignUpInput, unknown, SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { fullName: '', companyName: '', industryType: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const { signedIn } = await signUp(values);
      toast(TOASTS.accountCreated);
      // Signed in at once (no confirmation e-mail): the auth page's guard has already sent the person on,
      // and a late move to "Check your e-mail" would take them off the page they reached.
      if (!signedIn) {
        await navigate('/auth/verify', { state: { email: values.email } });
      }
    } catch (caught) {
      setError(authErrorMessage(caught));
    }
  });

  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void onSubmit(event)}>
      <AuthError message={error} />
      <FormField id="signup-full-name" label="Full Name" error={errors.fullName?.message}>
        <Input
          autoComplete="name"
          placeholder="Jane Doe"
          {...fieldAria('signup-full-name', errors.fullName?.message)}
          {...form.register('fullName')}
        />
      </FormField>
      <FormField id="signup-company" label="Company Name" error={errors.companyName?.message}>
        <Input
          autoComplete="organization"
          placeholder="Acme Inc."
          {...fieldAria('signup-company', errors.companyName?.message)}
          {...form.register('companyName')}
        />
      </FormField>
      <SelectField
        control={form.control}
        name="industryType"
        id="signup-industry"
        label="Industry Type"
        error={errors.industryType?.message}
        placeholder="Select your industry"
        options={optionsOf(INDUSTRIES)}
      />
      <FormField id="signup-email" label="Email" error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          {...fieldAria('signup-email', errors.email?.message)}
          {...form.register('email')}
        />
      </FormField>
      <FormField id="signup-password" label="Password" error={errors.password?.message}>
        <Input
          type="password"
          autoComplete="new-password"
          {...fieldAria('signup-password', errors.password?.message)}
          {...form.register('password')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
