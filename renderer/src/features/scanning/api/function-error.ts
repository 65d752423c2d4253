// The message of a failed edge-function call: the function's own {error} text when it answered with one
// (it says what to do), else the client's message, else the fallback.
export async function functionErrorMessage(error: unknown, fallback: string): Promise<string> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: unknown };
      if (typeof body.error === 'string' && body.error) {
        return body.error;
      }
    } catch {
      // Not JSON (a gateway page): fall through to the generic text.
    }
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
