import type { z } from 'zod';
import { HttpError } from './http.ts';

/**
 * Reads a JSON body and validates it with `schema`. Malformed JSON, a wrong content type or a body that
 * fails validation is the caller's mistake: 400 with the fields that are wrong, never a 500.
 */
export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const type = req.headers.get('content-type') ?? '';
  if (!type.toLowerCase().includes('application/json')) {
    throw new HttpError(400, 'Expected a JSON body (Content-Type: application/json)');
  }
  let raw: unknown;
  try {
    raw = await req.json();
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new HttpError(400, 'Invalid request body', issues);
  }
  return parsed.data;
}
