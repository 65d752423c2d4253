import { AlertTriangle } from 'lucide-react';

import { TOASTS } from '../../../../shared/messages.ts';
import { toast } from '../../hooks/use-toast.ts';
import { Button } from '../ui/button.tsx';

/** The screen shown for an uncaught render error: message, Error ID and the three ways out. */
export function ErrorFallback({ error, errorId }: { error: Error; errorId: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-4">
      <div className="w-full max-w-lg space-y-6 rounded-lg border bg-card p-8 text-center shadow-sm">
        <AlertTriangle className="mx-auto size-12 text-destructive" aria-hidden />
        <h1 className="text-2xl font-bold">Something went wrong</h1>
        <p className="break-words text-muted-foreground">
          {error.message || 'An unexpected error occurred.'}
        </p>
        <p className="text-sm text-muted-foreground">
          Error ID: <code className="rounded bg-muted px-1.5 py-0.5 font-mono">{errorId}</code>
        </p>
        <div className="flex flex-col justify-center gap-2 sm:flex-row">
          <Button onClick={() => window.location.reload()}>Reload Page</Button>
          <Button variant="outline" onClick={() => window.location.assign('/')}>
            Return to Home
          </Button>
          <Button variant="ghost" onClick={() => toast(TOASTS.issueReported)}>
            Report Issue
          </Button>
        </div>
      </div>
    </main>
  );
}
