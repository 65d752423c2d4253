import { RestError } from '../errors.ts';
import { fieldOutputName } from '../parse/field.ts';
import type { ColumnItem } from '../parse/select.ts';
import type { SchemaCache } from '../schema-cache.ts';
import { ident } from '../sql.ts';
import { fieldSql, type Level } from './where.ts';

/** Common spellings PostgREST accepts in `::cast` that are not pg_type names. */
const TYPE_ALIASES: Record<string, string> = {
  int: 'int4',
  integer: 'int4',
  bigint: 'int8',
  smallint: 'int2',
  boolean: 'bool',
  real: 'float4',
  float: 'float8',
  double: 'float8',
  decimal: 'numeric',
  character: 'bpchar',
  timestamptz: 'timestamptz',
};

export function castSql(cache: SchemaCache, cast: string): string {
  const name = TYPE_ALIASES[cast.toLowerCase()] ?? cast.toLowerCase();
  // The cast names a type; only types the schema cache knows reach the SQL, quoted.
  if (!cache.types.has(name)) {
    throw new RestError('42704', `type "${cast}" does not exist`);
  }
  return `::${ident(name)}`;
}

const AGGREGATE_SQL = { count: 'count', sum: 'sum', avg: 'avg', max: 'max', min: 'min' } as const;

/** An aggregate left for an ancestor level to apply to an output column (a to-one spread's). */
export interface HoistedAggregate {
  fn: string;
  /** `::type` applied to the aggregate's result, or ''. */
  cast: string;
}

export const applyAggregate = (a: HoistedAggregate, expr: string) => `${a.fn}(${expr})${a.cast}`;

export interface SelectedColumn {
  expr: string;
  name: string;
  aggregate: boolean;
  /** Set when the aggregate is hoisted: `expr` is then the value it applies to. */
  hoisted: HoistedAggregate | null;
}

/**
 * A selected column, or an aggregate of one (`col::cast.sum()::cast`, `count()`), and its output name. In a
 * to-one spread (`hoist`) an aggregate is not applied here but by the nearest ancestor that is no such
 * spread, as PostgREST 13 hoists it: the column (the whole row for `count()`) is selected under the
 * aggregate's name.
 */
export function columnSql(
  ctx: { aggregates: boolean; cache: SchemaCache; params: Parameters<typeof fieldSql>[2] },
  level: Level,
  item: ColumnItem,
  hoist: boolean,
): SelectedColumn {
  const cast = item.cast ? castSql(ctx.cache, item.cast) : '';
  if (item.aggregate) {
    if (!ctx.aggregates) {
      throw new RestError('PGRST123', 'Use of aggregate functions is not allowed');
    }
    const all = item.field.name === '*' && item.field.path.length === 0;
    const aggregate: HoistedAggregate = {
      fn: AGGREGATE_SQL[item.aggregate],
      cast: item.aggregateCast ? castSql(ctx.cache, item.aggregateCast) : '',
    };
    const name = item.alias ?? item.aggregate;
    if (hoist) {
      const value = all ? ident(level.alias) : fieldSql(level, item.field, ctx.params) + cast;
      return { expr: value, name, aggregate: true, hoisted: aggregate };
    }
    const inner = all ? '*' : fieldSql(level, item.field, ctx.params) + cast;
    return { expr: applyAggregate(aggregate, inner), name, aggregate: true, hoisted: null };
  }
  // `count` that is no column: Postgres reads `rel.count` as count(rel), PostgREST's pre-aggregate count
  // (no aggregate function: it does not make the level group by its other columns).
  if (item.field.name === 'count' && item.field.path.length === 0 && !level.columns.has('count')) {
    return { expr: `count(*)${cast}`, name: item.alias ?? 'count', aggregate: false, hoisted: null };
  }
  const expr = fieldSql(level, item.field, ctx.params) + cast;
  return { expr, name: item.alias ?? fieldOutputName(item.field), aggregate: false, hoisted: null };
}
