import { parseJsonBody } from './body.ts';
import { csvRows } from './csv-body.ts';
import { RestError } from './errors.ts';
import type { RestRequest } from './handlers/request.ts';
import { parseSimpleQuery } from './location.ts';

/** A table write's body as JSON: the parsed value and the text Postgres reads. */
export interface TablePayload {
  value: unknown;
  text: string;
}

/**
 * The body of an insert, upsert or update in the media types PostgREST takes for tables (ApiRequest
 * getPayload): JSON as written; `text/csv` as an array of objects of strings (csv-body.ts);
 * `application/x-www-form-urlencoded` as one object of strings (pairs split on `&` and `;`, `+` a space,
 * a repeated name keeps its last value). Any other type is 400 PGRST102.
 */
export function tablePayload(req: RestRequest): TablePayload {
  const body = req.bodyText ?? '';
  switch (req.contentType) {
    case 'application/json':
      return { value: parseJsonBody(req.bodyText), text: body.trim() ? body : '{}' };
    case 'text/csv': {
      const rows = csvRows(body);
      return { value: rows, text: JSON.stringify(rows) };
    }
    case 'application/x-www-form-urlencoded': {
      const latin1 = Buffer.from(body, 'utf8').toString('latin1');
      const fields: Record<string, string> = {};
      for (const [k, v] of parseSimpleQuery(latin1)) {
        fields[Buffer.from(k, 'latin1').toString('utf8')] = Buffer.from(v, 'latin1').toString('utf8');
      }
      return { value: fields, text: JSON.stringify(fields) };
    }
    default:
      throw new RestError('PGRST102', `Content-Type not acceptable: ${req.contentType}`);
  }
}
