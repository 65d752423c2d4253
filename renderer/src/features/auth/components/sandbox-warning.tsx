import { AlertTriangle } from 'lucide-react';

import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert.tsx';
import { isInFrame } from '../hooks/use-in-frame.ts';

export function SandboxWarning() {
  if (!isInFrame()) {
    return null;
  }
  return (
    <Alert variant="warning" data-testid="sandbox-warning">
      <AlertTriangle className="size-4" aria-hidden />
      <AlertTitle>Running inside a frame</AlertTitle>
      <AlertDescription>
        This page is embedded in another site, so some sign-in features (such as biometric authentication and
        e-mail links) may be blocked. Open Vigil in its own browser tab for the best experience.
      </AlertDescription>
    </Alert>
  );
}
