import type { Representation } from '../media.ts';
import { totalSql, type CountMode } from './count.ts';
import type { BuiltLevel, ReadSource } from './shapes.ts';

export interface RenderOptions {
  /** `with …` prefix, e.g. the data-modifying CTE of a mutation. */
  ctes?: string;
  /** Compute the total row count: `true` or a Prefer count mode (planned is completed by count.ts). */
  count: boolean | CountMode;
  /** Extra output columns of the outer query (e.g. how many rows an upsert inserted). */
  extra?: string;
  /** Render this column's bare values (set-returning scalar functions give `[1,2]`, not objects). */
  scalar?: string;
  /** db-max-rows, the cap of `count=estimated`'s exact count. */
  maxRows?: number | null;
  /** Leave out keys whose value is null (stripNulls()). */
  stripNulls?: boolean;
  /** JSON rows unless PostgREST's text/csv or GeoJSON FeatureCollection is asked for. */
  media?: Representation;
}

const rowJson = (o: RenderOptions) =>
  o.scalar
    ? `to_json(pgrst_r.${o.scalar})`
    : o.stripNulls
      ? 'json_strip_nulls(row_to_json(pgrst_r))'
      : 'row_to_json(pgrst_r)';

/**
 * PostgREST's application/geo+json (SqlFragment asGeoJsonF): a FeatureCollection of PostGIS's ST_AsGeoJSON of
 * each row (the first geometry column is the feature's geometry, the others its properties). Without
 * PostGIS, or a geometry column, Postgres answers with its own error, as it does to PostgREST.
 */
const GEOJSON_BODY =
  "json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(ST_AsGeoJSON(pgrst_r)::json), '[]'))::text";

const whereSql = (where: string[]) => (where.length > 0 ? ` where ${where.join(' and ')}` : '');

/**
 * The outer query of every read: rows rendered to JSON inside Postgres (so timestamps, numerics and
 * bigints are formatted exactly as PostgREST's) and joined into one text value.
 */
export function renderStatement(source: ReadSource, level: BuiltLevel, options: RenderOptions): string {
  const from = `${source.from} as "${source.alias.replace(/"/g, '""')}"${level.joins}`;
  const total = totalSql(options.count, from, level.where, options.maxRows ?? null);
  const inner = `select ${level.selectList.join(', ')} from ${from}${whereSql(level.where)}${level.groupBy}${level.orderBy}${level.paging}`;
  if (options.media === 'csv') {
    return csvStatement(options, total, inner);
  }
  const body =
    options.media === 'geojson' ? GEOJSON_BODY : `coalesce(string_agg(${rowJson(options)}::text, ','), '')`;
  return (
    `${options.ctes ?? ''}select ${total} as total, count(*)::int as page, ` +
    `${body} as body${options.extra ? `, ${options.extra}` : ''} from (${inner}) as pgrst_r`
  );
}

/**
 * PostgREST's text/csv, byte for byte (SqlFragment asCsvF): a header of the first row's keys joined by
 * commas (nothing when there is no row), a newline, then each row as Postgres writes a record (its text
 * output without the parentheses: NULL empty, values with commas, quotes or spaces double-quoted).
 */
function csvStatement(options: RenderOptions, total: string, inner: string): string {
  const ctes = options.ctes ? `${options.ctes.trimEnd()}, ` : 'with ';
  const header =
    "(select coalesce(string_agg(k, ','), '') from json_object_keys(" +
    '(select row_to_json(pgrst_h) from pgrst_rows as pgrst_h limit 1)) as k)';
  const rows = "coalesce(string_agg(substring(pgrst_r::text, 2, length(pgrst_r::text) - 2), E'\\n'), '')";
  return (
    `${ctes}pgrst_rows as (${inner}) select ${total} as total, ` +
    `count(*)::int as page, ${header} || E'\\n' || ${rows} as body` +
    `${options.extra ? `, ${options.extra}` : ''} from pgrst_rows as pgrst_r`
  );
}
