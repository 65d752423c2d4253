import type { Queryable } from '../../db/database.ts';
import type { Preferences } from '../prefer.ts';
import type { BuiltLevel, ReadSource, RenderedRow } from './shapes.ts';

export type CountMode = Preferences['count'];

const whereSql = (where: string[]) => (where.length > 0 ? ` where ${where.join(' and ')}` : '');

/**
 * The `total` expression of a read's statement for one count mode (planned counts come from EXPLAIN).
 * `count=estimated` counts exactly up to db-max-rows (`maxRows`) and one more, so a huge table is never
 * counted in full; without db-max-rows it counts exactly, as PostgREST does.
 */
export function totalSql(
  mode: CountMode | boolean,
  from: string,
  where: string[],
  maxRows: number | null = null,
): string {
  if (mode === true || mode === 'exact') {
    return `(select count(*) from ${from}${whereSql(where)})`;
  }
  if (mode === 'estimated') {
    const cap = maxRows === null ? '' : ` limit ${maxRows + 1}`;
    return `(select count(*) from (select 1 from ${from}${whereSql(where)}${cap}) as pgrst_capped)`;
  }
  return 'null::bigint';
}

/**
 * Renumbers the `$n` parameters a statement uses to `$1…` and keeps only their values, leaving quoted
 * identifiers and literals alone: EXPLAIN of the count query uses a subset of the read's parameters,
 * and Postgres refuses parameters a statement never mentions.
 */
function compactParams(sql: string, values: readonly unknown[]): { sql: string; values: unknown[] } {
  const used = new Map<number, number>();
  const kept: unknown[] = [];
  const text = sql.replace(
    /("(?:[^"]|"")*")|('(?:[^']|'')*')|\$(\d+)/g,
    (m, dq, sq, n: string | undefined) => {
      if (dq !== undefined || sq !== undefined || n === undefined) {
        return m;
      }
      const old = Number(n);
      if (!used.has(old)) {
        kept.push(values[old - 1]);
        used.set(old, kept.length);
      }
      return `$${used.get(old)}`;
    },
  );
  return { sql: text, values: kept };
}

/** The planner's row estimate for the read's rows (PostgREST's `count=planned`), as the caller's role. */
async function plannedRows(
  tx: Queryable,
  source: ReadSource,
  level: BuiltLevel,
  values: readonly unknown[],
): Promise<number | null> {
  const from = `${source.from} as "${source.alias.replace(/"/g, '""')}"${level.joins}`;
  const statement = compactParams(
    `explain (format json) select 1 from ${from}${whereSql(level.where)}`,
    values,
  );
  const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(statement.sql, statement.values);
  const raw = rows[0]?.['QUERY PLAN'];
  const plan: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const estimate = (plan as [{ Plan?: { 'Plan Rows'?: unknown } }] | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof estimate === 'number' ? Math.round(estimate) : null;
}

/**
 * Completes a read's total for `count=planned` (the plan's estimate) and `count=estimated` (exact up to
 * db-max-rows, else the larger of the capped count and the estimate; without db-max-rows always the larger,
 * as PostgREST's resultSetWTotal compares), as PostgREST does. The EXPLAIN runs through `run`, in a read-only
 * transaction of its own as the request's role, only when needed.
 */
export async function applyCountMode(
  run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>,
  mode: CountMode,
  row: RenderedRow,
  source: ReadSource,
  level: BuiltLevel,
  values: readonly unknown[],
  maxRows: number | null,
): Promise<RenderedRow> {
  if (mode === 'planned') {
    return { ...row, total: await run((tx) => plannedRows(tx, source, level, values)) };
  }
  if (mode === 'estimated' && row.total !== null && (maxRows === null || Number(row.total) > maxRows)) {
    const planned = await run((tx) => plannedRows(tx, source, level, values));
    return { ...row, total: Math.max(Number(row.total), planned ?? 0) };
  }
  return row;
}
