// Logs a caught error and tracks it through the application-logger function; when tracking fails the
// record is kept in local storage (docs/product.md §8) so nothing is lost while offline.
import { supabase } from '../supabase.ts';
import { classifySeverity, createErrorId, type ErrorSeverity } from './classify.ts';
import { storeError } from './error-store.ts';

export interface ReportedError {
  id: string;
  severity: ErrorSeverity;
}

export async function reportError(
  error: Error,
  component?: string,
  id = createErrorId(),
): Promise<ReportedError> {
  const severity = classifySeverity(error);
  const timestamp = new Date().toISOString();
  console.error(`[${id}] (${severity})`, error);
  try {
    const client = await supabase();
    const { data } = await client.auth.getSession();
    const logged = await client.functions.invoke<unknown>('application-logger', {
      body: {
        level: 'error',
        message: error.message,
        context: {
          errorId: id,
          severity,
          component,
          name: error.name,
          stack: error.stack?.slice(0, 4000),
          url: location.pathname,
        },
        timestamp,
        user_id: data.session?.user.id ?? null,
      },
    });
    if (logged.error) {
      throw new Error('application-logger failed');
    }
  } catch {
    // Tracking is best effort: keep the record locally instead (the store caps itself at 50 entries).
    try {
      storeError(localStorage, { id, timestamp, message: error.message, component, severity });
    } catch {
      // localStorage itself may be unavailable (e.g. blocked cookies); the console log above remains.
    }
  }
  return { id, severity };
}
