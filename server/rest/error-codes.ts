/**
 * PostgREST's own error codes and the HTTP status each is answered with (its Error.hs: PGRST0xx connection,
 * PGRST1xx request, PGRST2xx schema cache, PGRST3xx JWT, PGRSTX00 internal). A RestError is built from a code
 * of this list, or from a Postgres SQLSTATE (status by pgErrorStatus below), never from a free status, so a
 * misspelt code or a status PostgREST does not give it does not compile.
 */
export const PGRST_STATUS = {
  PGRST000: 503,
  PGRST001: 503,
  PGRST002: 503,
  PGRST003: 504,
  PGRST100: 400,
  PGRST101: 405,
  PGRST102: 400,
  PGRST103: 416,
  PGRST105: 405,
  PGRST106: 406,
  PGRST107: 406,
  PGRST108: 400,
  PGRST111: 500,
  PGRST112: 500,
  PGRST114: 400,
  PGRST115: 400,
  PGRST116: 406,
  PGRST117: 405,
  PGRST118: 400,
  PGRST120: 400,
  PGRST121: 500,
  PGRST122: 400,
  PGRST123: 400,
  PGRST124: 400,
  PGRST125: 404,
  PGRST126: 404,
  PGRST127: 400,
  PGRST128: 400,
  PGRST200: 400,
  PGRST201: 300,
  PGRST202: 404,
  PGRST203: 300,
  PGRST204: 400,
  PGRST205: 404,
  PGRST300: 500,
  PGRST301: 401,
  PGRST302: 401,
  PGRST303: 401,
  PGRSTX00: 500,
  // Not PostgREST's: the stack's own limit on request bodies (the gateway's, on hosted Supabase).
  PGRST413: 413,
} as const;

export type PgrstCode = keyof typeof PGRST_STATUS;

/**
 * The Postgres SQLSTATEs the REST layer raises itself, in Postgres's own words (an unknown column or type): PostgREST leaves these to Postgres, and answers them with pgErrorStatus below.
 */
export const OWN_SQLSTATES = ['42703', '42704'] as const;

/** A Postgres SQLSTATE: one the layer raises itself, or one Postgres raised (tagged when it is read). */
export type SqlState = (typeof OWN_SQLSTATES)[number] | (string & { readonly fromPostgres: true });

/** A SQLSTATE as Postgres reported it. */
export const postgresState = (code: string) => code as SqlState;

export const isPgrstCode = (code: string): code is PgrstCode => code in PGRST_STATUS;

/** PostgREST's SQLSTATE → HTTP status table (Error.hs pgErrorStatus); 42501 depends on who asked. */
export function pgErrorStatus(code: string, anon: boolean): number {
  if (code === '42501') {
    return anon ? 401 : 403;
  }
  if (/^PT\d{3}$/.test(code)) {
    return Number(code.slice(2));
  }
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '42883': 404,
    '42P01': 404,
    '42P17': 500,
    P0001: 400,
  };
  if (exact[code]) {
    return exact[code];
  }
  const byClass: Record<string, number> = {
    '08': 503,
    '09': 500,
    '0L': 403,
    '0P': 403,
    '25': 500,
    '28': 403,
    '2D': 500,
    '38': 500,
    '39': 500,
    '3B': 500,
    '40': 500,
    '53': 503,
    '54': 500,
    '55': 500,
    '57': 500,
    '58': 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}
