import { corsHeaders } from './cors.ts';

/** A JSON response with the CORS headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json', ...headers },
  });
}

/** An error the handler answers with as `{"error": message}` and its status; anything else is a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
    /** More top-level fields of the JSON body (an error code, say). */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorResponse(e: unknown): Response {
  if (e instanceof HttpError) {
    return json(
      {
        ...e.fields,
        error: e.message,
        ...(e.details === undefined ? {} : { details: e.details }),
      },
      e.status,
    );
  }
  // Unexpected faults: log the cause for the operator, tell the caller no internals.
  console.error(e);
  return json({ error: 'Internal error' }, 500);
}

/**
 * Wraps a handler: answers CORS preflights and turns thrown HttpErrors into their JSON responses,
 * so each function only writes its happy path and its checks.
 */
export function withErrors(fn: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method === 'OPTIONS') {
      return new Response('ok', { headers: corsHeaders });
    }
    try {
      return await fn(req);
    } catch (e) {
      return errorResponse(e);
    }
  };
}
