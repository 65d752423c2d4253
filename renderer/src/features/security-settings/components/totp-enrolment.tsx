import { useState } from 'react';

import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { supabase } from '../../../lib/supabase.ts';

type Enrolment = { factorId: string; qr: string; secret: string };

/** Adds an authenticator app: enrol, scan the QR code, confirm with a code (the session becomes aal2). */
export function TotpEnrolment({
  onDone,
  onError,
}: {
  onDone: () => void;
  onError: (message: string) => void;
}) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    const { data, error } = await (
      await supabase()
    ).auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: `Authenticator app (${new Date().toISOString().slice(0, 16).replace('T', ' ')})`,
    });
    setBusy(false);
    if (error) {
      onError(error.message);
      return;
    }
    setEnrolment({ factorId: data.id, qr: data.totp.qr_code, secret: data.totp.secret });
  };

  const confirm = async () => {
    if (!enrolment) {
      return;
    }
    setBusy(true);
    const { error } = await (
      await supabase()
    ).auth.mfa.challengeAndVerify({ factorId: enrolment.factorId, code: code.trim() });
    setBusy(false);
    if (error) {
      onError(error.message);
      return;
    }
    setEnrolment(null);
    setCode('');
    onDone();
  };

  if (!enrolment) {
    return (
      <Button variant="outline" disabled={busy} onClick={() => void start()}>
        Add Authenticator App
      </Button>
    );
  }
  return (
    <form
      className="space-y-3 rounded-md border p-4"
      onSubmit={(event) => {
        event.preventDefault();
        void confirm();
      }}
    >
      <p className="text-sm">
        Scan this QR code with your authenticator app, then enter the 6-digit code it shows.
      </p>
      <img src={enrolment.qr} alt="Authenticator app QR code" className="size-44 rounded bg-white p-2" />
      <p className="text-xs text-muted-foreground">
        Or enter this key: <code data-testid="totp-secret">{enrolment.secret}</code>
      </p>
      <Label htmlFor="totp-code">Code</Label>
      <Input
        id="totp-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" disabled={busy || !/^\d{6}$/.test(code.trim())}>
        Verify and Enable
      </Button>
    </form>
  );
}
