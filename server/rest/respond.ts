import { RestError, singleObjectError } from './errors.ts';
import type { RenderedRow } from './build/statement.ts';

export type MediaType = 'json' | 'object' | 'csv';

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const CONTENT_TYPE: Record<MediaType, string> = {
  json: 'application/json; charset=utf-8',
  object: 'application/vnd.pgrst.object+json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** stripNulls(): `Accept: application/vnd.pgrst.(array|object)+json;nulls=stripped`. */
export const wantsNullsStripped = (accept: string | undefined) =>
  /vnd\.pgrst\.(array|object)\+json[^,]*;\s*nulls=stripped/i.test(accept ?? '');

/** Which representation the client asked for (Accept); anything else is PostgREST's 406 PGRST107. */
export function mediaType(accept: string | undefined): MediaType {
  const types = (accept ?? '')
    .split(',')
    .map((t) => t.split(';')[0]!.trim().toLowerCase())
    .filter((t) => t !== '');
  if (types.length === 0) {
    return 'json';
  }
  for (const t of types) {
    if (t === 'application/vnd.pgrst.object+json' || t === 'application/vnd.pgrst.object') {
      return 'object';
    }
    if (t === 'text/csv') {
      return 'csv';
    }
    if (
      t === 'application/json' ||
      t === 'application/vnd.pgrst.array+json' ||
      t === '*/*' ||
      t === 'application/*'
    ) {
      return 'json';
    }
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`);
}

/** The body in the requested media type; a single object must be exactly one row (else 406 PGRST116). */
export function renderBody(row: RenderedRow, media: MediaType): string {
  if (media === 'object') {
    if (row.page !== 1) {
      throw singleObjectError(row.page);
    }
    return row.body;
  }
  // CSV is rendered by Postgres itself (build/statement.ts).
  return media === 'csv' ? row.body : `[${row.body}]`;
}

/** Content-Range and the 200/206/416 status of a read (wire contract §3.5). */
export function rangeOf(row: RenderedRow, offset: number): { status: number; contentRange: string } {
  const total = row.total === null ? null : Number(row.total);
  const totalText = total === null ? '*' : String(total);
  if (total !== null && offset > total) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
    );
  }
  const contentRange = row.page === 0 ? `*/${totalText}` : `${offset}-${offset + row.page - 1}/${totalText}`;
  return { status: total !== null && row.page < total ? 206 : 200, contentRange };
}

export const contentType = (media: MediaType) => CONTENT_TYPE[media];
