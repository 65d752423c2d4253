// What a caught crash does (docs/product.md §4): show the fallback, log and track the error once, raise the 6 s toast.
import { useEffect, useState } from 'react';

import { TIMINGS } from '../../../../shared/constants.ts';
import { crashToastDescription } from '../../../../shared/messages.ts';
import { toast } from '../../hooks/use-toast.ts';
import { createErrorId } from '../../lib/errors/classify.ts';
import { ErrorFallback } from './error-fallback.tsx';

export function CrashScreen({ error, component }: { error: Error; component?: string }) {
  const [errorId] = useState(() => createErrorId());
  useEffect(() => {
    toast({
      variant: 'destructive',
      title: 'An error occurred',
      description: crashToastDescription(errorId),
      duration: TIMINGS.errorToastDurationMs,
    });
    // Reporting code loads only when something has crashed, keeping it out of the first page load.
    void import('../../lib/errors/report-error.ts').then(({ reportError }) =>
      reportError(error, component, errorId),
    );
  }, [error, component, errorId]);
  return <ErrorFallback error={error} errorId={errorId} />;
}
