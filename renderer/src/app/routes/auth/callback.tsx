import { CheckCircle2, Loader2, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { AUTH_MESSAGES, callbackErrorMessage } from '../../../../../shared/messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { exchangeCodeOnce, urlAuthError } from '../../../lib/auth/exchange-code.ts';

type View = { kind: 'completing' } | { kind: 'complete' } | { kind: 'error'; message: string };

export function Component() {
  const navigate = useNavigate();
  const [view, setView] = useState<View>({ kind: 'completing' });

  useEffect(() => {
    let active = true;
    const finish = (next: View) => {
      if (active) {
        setView(next);
      }
    };
    const { search, hash } = window.location;
    const urlError = urlAuthError(search, hash);
    const code = new URLSearchParams(search).get('code');
    if (urlError !== null || !code) {
      finish({ kind: 'error', message: callbackErrorMessage(urlError) });
      return undefined;
    }
    exchangeCodeOnce(code).then(
      ({ ok }) =>
        finish(ok ? { kind: 'complete' } : { kind: 'error', message: AUTH_MESSAGES.callbackFailed }),
      () => finish({ kind: 'error', message: AUTH_MESSAGES.callbackUnexpected }),
    );
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    if (view.kind !== 'complete') {
      return undefined;
    }
    // A short pause lets the person read the confirmation before the dashboard loads.
    const timer = setTimeout(() => void navigate('/dashboard', { replace: true }), 1_500);
    return () => clearTimeout(timer);
  }, [view, navigate]);

  if (view.kind === 'completing') {
    return (
      <AuthShell title="Completing Authentication">
        <p className="flex items-center justify-center gap-2 text-muted-foreground" role="status">
          <Loader2 className="size-5 animate-spin" aria-hidden /> Please wait while we verify your account...
        </p>
      </AuthShell>
    );
  }
  if (view.kind === 'complete') {
    return (
      <AuthShell title="Authentication Complete">
        <p className="flex items-center justify-center gap-2 text-muted-foreground" role="status">
          <CheckCircle2 className="size-5 text-success" aria-hidden /> Your account is verified. Redirecting
          to your dashboard...
        </p>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Authentication Error">
      <div className="space-y-6 text-center">
        <XCircle className="mx-auto size-12 text-destructive" aria-hidden />
        <p role="alert" className="break-words text-muted-foreground">
          {view.message}
        </p>
        <Button className="w-full" onClick={() => void navigate('/auth', { replace: true })}>
          Return to Login
        </Button>
      </div>
    </AuthShell>
  );
}
