import type { Queryable } from '../../db/database.ts';
import type { RenderedRow } from '../build/statement.ts';
import type { Preferences } from '../prefer.ts';
import type { MediaType, RestResponse } from '../respond.ts';
import { contentType, rangeOf, renderBody } from '../respond.ts';
import type { RestConfig } from '../config.ts';
import type { SchemaCache } from '../schema-cache.ts';

/** One parsed /rest/v1 request, as the handlers see it. */
export interface RestRequest {
  method: string;
  params: URLSearchParams;
  prefs: Preferences;
  media: MediaType;
  stripNulls: boolean;
  bodyText: string | null;
  /** The request body's media type, lower-cased without parameters (PostgREST defaults to JSON). */
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

/** The response of a read (GET/HEAD on a table or a set-returning function). */
export function readResponse(req: RestRequest, row: RenderedRow, offset: number): RestResponse {
  const body = renderBody(row, req.media);
  const { status, contentRange } = rangeOf(row, offset);
  const headers: Record<string, string> = {
    'content-type': contentType(req.media),
    'content-range': contentRange,
  };
  if (req.prefs.count) {
    headers['preference-applied'] = `count=${req.prefs.count}`;
  }
  return { status, headers, body: req.method === 'HEAD' ? null : body };
}
