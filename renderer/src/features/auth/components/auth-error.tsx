import { AlertCircle } from 'lucide-react';

import { Alert, AlertDescription } from '../../../components/ui/alert.tsx';

export function AuthError({ message }: { message: string | null }) {
  if (!message) {
    return null;
  }
  return (
    <Alert variant="destructive" data-testid="auth-error">
      <AlertCircle className="size-4" aria-hidden />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
