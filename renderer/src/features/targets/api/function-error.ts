// The message of an edge function's error answer ({"error": "…"}), for the person who caused it.
export async function functionErrorText(error: unknown, fallback: string): Promise<string> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: unknown };
      if (typeof body.error === 'string' && body.error) {
        return body.error;
      }
    } catch {
      // Not JSON: fall through.
    }
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
