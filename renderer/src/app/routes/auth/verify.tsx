import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';

import { authErrorMessage } from '../../../../../shared/messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { AuthShell } from '../../../features/auth/components/auth-shell.tsx';
import { authRedirectUrl } from '../../../lib/platform/index.ts';
import { supabase } from '../../../lib/supabase.ts';

function emailFromState(state: unknown): string | null {
  if (state && typeof state === 'object' && 'email' in state && typeof state.email === 'string') {
    return state.email;
  }
  return null;
}

export function Component() {
  const email = emailFromState(useLocation().state);
  const [sending, setSending] = useState(false);

  const resend = async () => {
    if (!email) {
      return;
    }
    setSending(true);
    const { error } = await (
      await supabase()
    ).auth.resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: authRedirectUrl('/auth/callback') },
    });
    setSending(false);
    toast(
      error
        ? { variant: 'destructive', title: 'Could not resend email', description: authErrorMessage(error) }
        : { title: 'Confirmation email sent', description: `We sent a new link to ${email}.` },
    );
  };

  return (
    <AuthShell title="Check Your Email">
      <div className="space-y-6 text-center">
        <MailCheck className="mx-auto size-14 text-primary" aria-hidden />
        <p className="text-muted-foreground">
          We sent a confirmation link to{' '}
          {email ? <strong className="text-foreground">{email}</strong> : 'your email address'}. Click the
          link to verify your account, then sign in.
        </p>
        <p className="text-sm text-muted-foreground">Didn't get it? Check your spam folder.</p>
        <div className="flex flex-col gap-2">
          {email ? (
            <Button variant="outline" disabled={sending} onClick={() => void resend()}>
              {sending ? 'Sending...' : 'Resend confirmation email'}
            </Button>
          ) : null}
          <Button asChild>
            <Link to="/auth">Back to Sign In</Link>
          </Button>
        </div>
      </div>
    </AuthShell>
  );
}
