import { z } from 'zod';
import { parseBody } from '../_shared/body.ts';
import { requireUser } from '../_shared/clients.ts';
import { HttpError, json, withErrors } from '../_shared/http.ts';

const MAX_CONTEXT_BYTES = 16 * 1024;

const LogEntry = z.object({
  level: z.enum(['info', 'warning', 'error']),
  message: z.string().trim().min(1).max(2000),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .refine(
      (c) => c === undefined || new TextEncoder().encode(JSON.stringify(c)).length <= MAX_CONTEXT_BYTES,
      {
        message: `context must be at most ${MAX_CONTEXT_BYTES} bytes of JSON`,
      },
    ),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  // Accepted for compatibility with the body of docs/product.md §7.4, but never trusted: the caller's id is used.
  user_id: z.string().optional(),
});

/**
 * application-logger (docs/product.md §7): stores one log entry from a signed-in client in
 * public.application_logs. The entry is attributed to the caller, whatever the body claims.
 */
export default withErrors(async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') {
    throw new HttpError(405, 'Use POST');
  }
  // Also at aal1: the second-factor step reports its own errors too.
  const { user, clients } = await requireUser(req, { assurance: 'any' });
  const entry = await parseBody(req, LogEntry);
  const { data, error } = await clients.admin
    .from('application_logs')
    .insert({
      level: entry.level,
      message: entry.message,
      context: entry.context ?? {},
      user_id: user.id,
      timestamp: entry.timestamp ?? new Date().toISOString(),
    })
    .select('id')
    .single<{ id: string | number }>();
  if (error) {
    throw new Error(`application_logs insert failed: ${error.message}`);
  }
  return json({ success: true, id: data.id });
});
