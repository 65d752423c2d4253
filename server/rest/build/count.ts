import type { Queryable } from '../../db/database.ts';
import type { Preferences } from '../prefer.ts';
import type { BuiltLevel, ReadSource } from './read.ts';
import type { RenderedRow } from './statement.ts';

export type CountMode = Preferences['count'];

/**
 * The row count above which `count=estimated` trusts the planner: Supabase's default `max_rows` (PostgREST's
 * db-max-rows). Below it the count is exact; above it, the larger of the capped exact count and the plan's.
 */
export const ESTIMATE_EXACT_LIMIT = 1000;

const whereSql = (where: string[]) => (where.length > 0 ? ` where ${where.join(' and ')}` : '');

/** The `total` expression of a read's statement for one count mode (planned counts come from EXPLAIN). */
export function totalSql(mode: CountMode | boolean, from: string, where: string[]): string {
  if (mode === true || mode === 'exact') {
    return `(select count(*) from ${from}${whereSql(where)})`;
  }
  if (mode === 'estimated') {
    // Capped one past the limit, so a huge table is never counted in full.
    return `(select count(*) from (select 1 from ${from}${whereSql(where)} limit ${ESTIMATE_EXACT_LIMIT + 1}) as pgrst_capped)`;
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
 * the limit, else the larger of the capped count and the estimate), as PostgREST's MainTx does. The
 * EXPLAIN runs through `run`, in a read-only transaction of its own as the request's role, only when needed.
 */
export async function applyCountMode(
  run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>,
  mode: CountMode,
  row: RenderedRow,
  source: ReadSource,
  level: BuiltLevel,
  values: readonly unknown[],
): Promise<RenderedRow> {
  if (mode === 'planned') {
    return { ...row, total: await run((tx) => plannedRows(tx, source, level, values)) };
  }
  if (mode === 'estimated' && row.total !== null && Number(row.total) > ESTIMATE_EXACT_LIMIT) {
    const planned = await run((tx) => plannedRows(tx, source, level, values));
    return { ...row, total: Math.max(Number(row.total), planned ?? 0) };
  }
  return row;
}
