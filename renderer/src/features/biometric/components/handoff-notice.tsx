import { ExternalLink, Globe } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { HandoffWaiting } from '../hooks/use-handoff.ts';
import { BIOMETRIC_MESSAGES } from '../lib/biometric-messages.ts';

const secondsLeft = (deadline: number) => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));

/** What the desktop shows while the system browser runs the ceremony: where to look, and a way out. */
export function HandoffNotice({
  waiting,
  onCancel,
  onReopen,
}: {
  waiting: HandoffWaiting;
  onCancel: () => void;
  onReopen: () => void;
}) {
  const [left, setLeft] = useState(() => secondsLeft(waiting.deadline));
  useEffect(() => {
    const timer = setInterval(() => setLeft(secondsLeft(waiting.deadline)), 1000);
    return () => clearInterval(timer);
  }, [waiting.deadline]);
  return (
    <Alert data-testid="webauthn-handoff" role="status">
      <Globe className="size-4" aria-hidden />
      <AlertTitle>{BIOMETRIC_MESSAGES.handOffTitle}</AlertTitle>
      <AlertDescription>
        <p>{BIOMETRIC_MESSAGES.handOffWaiting}</p>
        <p className="text-xs text-muted-foreground" aria-live="off">
          {left > 0 ? `This request expires in ${left} s.` : 'This request is expiring.'}
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onReopen}>
            <ExternalLink aria-hidden /> Open the browser again
          </Button>
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Stop waiting
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
