// What a failed edge-function call (supabase.functions.invoke) has to say to the person who caused it.

/**
 * The function's own message: the `error` string of its JSON answer ({"error": "…"}), which says what to
 * do; null when it sent no answer, an answer that is not JSON (a gateway page) or one without that string.
 */
export async function functionErrorBody(error: unknown): Promise<string | null> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: unknown };
      if (typeof body.error === 'string') {
        return body.error;
      }
    } catch {
      // Not JSON: the caller's fallback says what failed.
    }
  }
  return null;
}

/** The function's own message when it gave one, else the client's message, else the fallback. */
export async function functionErrorText(error: unknown, fallback: string): Promise<string> {
  const own = await functionErrorBody(error);
  if (own) {
    return own;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
