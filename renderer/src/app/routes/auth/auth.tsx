import { Fingerprint } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { SandboxWarning } from '../../../features/auth/components/sandbox-warning.tsx';
import { SignInForm } from '../../../features/auth/components/sign-in-form.tsx';
import { PublicOnlyRoute } from '../../../lib/auth/protected-route.tsx';

// The sign-up form (with its industry select) loads when asked for, or when the pointer or focus reaches
// "Sign up": the sign-in view, prerendered and hydrated first, does not carry it.
const loadSignUpForm = () => import('../../../features/auth/components/sign-up-form.tsx');
const SignUpForm = lazy(() => loadSignUpForm().then((m) => ({ default: m.SignUpForm })));
const prefetchSignUpForm = () => void loadSignUpForm().catch(() => undefined);

function AuthPage() {
  const navigate = useNavigate();
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const signUp = mode === 'sign-up';
  return (
    <AuthShell
      title={signUp ? 'Create an Account' : 'Welcome Back'}
      description={
        signUp
          ? 'Start protecting your business with AI security agents'
          : 'Sign in to your security dashboard'
      }
    >
      <div className="space-y-4">
        <SandboxWarning />
        <Tabs defaultValue="email">
          <TabsList className="grid w-full grid-cols-2">
            <TabsTrigger value="email">Email</TabsTrigger>
            <TabsTrigger value="social">Social</TabsTrigger>
          </TabsList>
          <TabsContent value="email" className="space-y-4 pt-2">
            {signUp ? (
              <Suspense
                fallback={
                  <div className="flex justify-center py-8">
                    <Spinner label="Loading the sign-up form" />
                  </div>
                }
              >
                <SignUpForm />
              </Suspense>
            ) : (
              <SignInForm />
            )}
            <p className="text-center text-sm text-muted-foreground">
              {signUp ? 'Already have an account?' : "Don't have an account?"}{' '}
              <Button
                variant="link"
                className="h-auto p-0"
                onPointerEnter={signUp ? undefined : prefetchSignUpForm}
                onFocus={signUp ? undefined : prefetchSignUpForm}
                onClick={() => setMode(signUp ? 'sign-in' : 'sign-up')}
              >
                {signUp ? 'Sign in' : 'Sign up'}
              </Button>
            </p>
          </TabsContent>
          <TabsContent value="social" className="space-y-4 pt-2">
            <p className="text-sm text-muted-foreground">
              Use your device's fingerprint, face or security key as a second factor for your account.
            </p>
            <Button
              variant="outline"
              className="w-full"
              onClick={() => void navigate('/auth/biometric-setup')}
            >
              <Fingerprint aria-hidden /> Set Up Biometric Authentication
            </Button>
          </TabsContent>
        </Tabs>
        <p className="text-center text-xs text-muted-foreground">
          By continuing, you agree to our{' '}
          <Link to="/terms" className="underline hover:text-foreground">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="underline hover:text-foreground">
            Privacy Policy
          </Link>
          .
        </p>
      </div>
    </AuthShell>
  );
}

export function Component() {
  return (
    <PublicOnlyRoute>
      <AuthPage />
    </PublicOnlyRoute>
  );
}
