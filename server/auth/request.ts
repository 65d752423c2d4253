import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { z } from 'zod';
import { authError } from './errors.ts';

/** Query param redirect_to, as auth-js sends it (never in the body). */
export const redirectParam = (c: Context) => c.req.query('redirect_to') ?? null;

/** The peer address; X-Forwarded-For is ignored so a client cannot pick its own rate-limit bucket. */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Parses a JSON body with `schema`. Malformed JSON is 400 bad_json, a body that does not fit the schema
 * 400 validation_failed; neither may reach the handlers as an exception (which would be a 500).
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let json: unknown = {};
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw authError(
        400,
        'bad_json',
        `Could not parse request body as JSON: ${e instanceof Error ? e.message : 'invalid'}`,
      );
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw authError(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
  }
  if (containsNul(json)) {
    throw nulRefused();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw authError(400, 'validation_failed', `Invalid request body: ${where}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Postgres text cannot hold U+0000: such input is refused at the boundary, never sent to the database. */
export const nulRefused = () =>
  authError(400, 'validation_failed', 'Invalid request: text may not contain the NUL character (\\u0000)');

/** Whether any string in a parsed JSON value (keys included) holds a NUL character. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') {
    return value.includes('\u0000');
  }
  if (depth > 64 || value === null || typeof value !== 'object') {
    return false;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) {
      return true;
    }
  }
  return false;
}
