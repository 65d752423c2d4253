import { RestError, singleObjectError } from './errors.ts';
import type { RenderedRow } from './build/shapes.ts';
import type { Representation } from './media.ts';

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const CONTENT_TYPE: Record<Representation, [string, string]> = {
  json: ['application/json', 'application/vnd.pgrst.array+json;nulls=stripped'],
  object: ['application/vnd.pgrst.object+json', 'application/vnd.pgrst.object+json;nulls=stripped'],
  csv: ['text/csv', 'text/csv'],
  geojson: ['application/geo+json', 'application/geo+json'],
};

/** The Content-Type of a representation, as PostgREST names it (MediaType.toContentType). */
export const contentType = (media: Representation, stripNulls = false) =>
  `${CONTENT_TYPE[media][stripNulls ? 1 : 0]}; charset=utf-8`;

/** The body in the requested media type; a single object must be exactly one row (else 406 PGRST116). */
export function renderBody(row: RenderedRow, media: Representation): string {
  if (media === 'object') {
    if (row.page !== 1) {
      throw singleObjectError(row.page);
    }
    return row.body;
  }
  // CSV and GeoJSON are rendered by Postgres itself (build/statement.ts).
  return media === 'json' ? `[${row.body}]` : row.body;
}

/**
 * PostgREST's contentRangeH: `<lower>-<upper>/<total>`, the range `*` when it is empty or the total is 0,
 * the total `*` when not counted. Writes use it with fixed bounds: inserts and deletes `1-0` (always `*`),
 * updates `0-(rows-1)`.
 */
export function contentRange(lower: number, upper: number, total: number | null): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === null ? '*' : total}`;
}

/** Content-Range and the 200/206/416 status of a read. */
export function rangeOf(row: RenderedRow, offset: number): { status: number; contentRange: string } {
  const total = row.total === null ? null : Number(row.total);
  const totalText = total === null ? '*' : String(total);
  if (total !== null && offset > total) {
    throw new RestError(
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
      null,
      { 'content-range': `*/${total}` },
    );
  }
  const contentRange = row.page === 0 ? `*/${totalText}` : `${offset}-${offset + row.page - 1}/${totalText}`;
  return { status: total !== null && row.page < total ? 206 : 200, contentRange };
}
