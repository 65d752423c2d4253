import { describe, expect, it } from 'vitest';
import { functionErrorBody, functionErrorText } from './function-error.ts';

/** A failed invoke as supabase-js reports it: an error whose context is the function's Response. */
const failed = (body: string, message = 'Edge Function returned a non-2xx status code') =>
  Object.assign(new Error(message), { context: new Response(body, { status: 400 }) });

describe('function error text', () => {
  it("takes the function's own {error} message", async () => {
    expect(await functionErrorText(failed('{"error":"Verify the domain first."}'), 'x')).toBe(
      'Verify the domain first.',
    );
    expect(await functionErrorBody(failed('{"error":"Verify the domain first."}'))).toBe(
      'Verify the domain first.',
    );
  });

  it("falls back to the client's message, then to the fallback", async () => {
    expect(await functionErrorText(failed('<html>bad gateway</html>'), 'Try again.')).toBe(
      'Edge Function returned a non-2xx status code',
    );
    expect(await functionErrorText(failed('{"error":""}', ''), 'Try again.')).toBe('Try again.');
    expect(await functionErrorBody(failed('<html>bad gateway</html>'))).toBeNull();
    expect(await functionErrorBody(new Error('network'))).toBeNull();
  });
});
