import type { Queryable } from '../../db/database.ts';
import { RestError } from '../errors.ts';
import type { RenderedRow } from '../build/shapes.ts';
import type { Preferences } from '../prefer.ts';
import type { PlanRequest, Representation } from '../media.ts';
import type { RestResponse } from '../respond.ts';
import { contentType, rangeOf, renderBody } from '../respond.ts';
import type { RestConfig } from '../config.ts';
import type { SchemaCache } from '../schema-cache.ts';

/** One parsed /rest/v1 request, as the handlers see it. */
export interface RestRequest {
  method: string;
  params: URLSearchParams;
  /** The query string as sent (for PostgREST's canonical Content-Location). */
  rawQuery: string;
  /** The `Range` request header (PostgREST reads it on GET only). */
  rangeHeader: string | undefined;
  prefs: Preferences;
  media: Representation;
  stripNulls: boolean;
  /** `Accept: application/vnd.pgrst.plan…` (db-plan-enabled): the statement's EXPLAIN instead of its rows. */
  plan: PlanRequest | null;
  bodyText: string | null;
  /** The body's bytes, for a function taking it whole as bytea. */
  bodyBytes: Uint8Array | null;
  /** The request body's media type as PostgREST names it (JSON when absent). */
  contentType: string;
  /** The cache of the request's schema (chosen by Accept-Profile / Content-Profile). */
  cache: SchemaCache;
  config: RestConfig;
  /**
   * Runs `fn` in the request's transaction (as its role); tx=rollback is applied there. `oneStatement`
   * promises that `fn` runs exactly one statement and nothing after it can fail the request, so COMMIT
   * may travel with it (reads always qualify).
   */
  run<T>(readOnly: boolean, fn: (tx: Queryable) => Promise<T>, oneStatement?: boolean): Promise<T>;
}

export async function queryOne(tx: Queryable, sql: string, params: unknown[]): Promise<RenderedRow> {
  const { rows } = await tx.query<RenderedRow>(sql, params);
  return rows[0] ?? { total: null, page: 0, body: '' };
}

/**
 * The response of a read (GET/HEAD on a table or a set-returning function). A table's read names itself in
 * `Content-Location` (PostgREST's canonical location), also on its 416; a function's does not.
 */
export function readResponse(
  req: RestRequest,
  row: RenderedRow,
  offset: number,
  location: string | null = null,
): RestResponse {
  const body = renderBody(row, req.media);
  const located: Record<string, string> = location === null ? {} : { 'content-location': location };
  let range: { status: number; contentRange: string };
  try {
    range = rangeOf(row, offset);
  } catch (e) {
    if (e instanceof RestError) {
      Object.assign(e.headers, located);
    }
    throw e;
  }
  const { status, contentRange } = range;
  const headers: Record<string, string> = {
    'content-type': contentType(req.media, req.stripNulls),
    'content-range': contentRange,
    ...located,
  };
  if (req.prefs.count) {
    headers['preference-applied'] = `count=${req.prefs.count}`;
  }
  return { status, headers, body: req.method === 'HEAD' ? null : body };
}
