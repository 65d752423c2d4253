import { RestError } from '../errors.ts';
import { fieldOutputName } from '../parse/field.ts';
import type { NodeOptions } from '../parse/query.ts';
import type { ColumnItem, EmbedItem, SelectItem } from '../parse/select.ts';
import type { Column, SchemaCache } from '../schema-cache.ts';
import { ident, qualified, type Params } from '../sql.ts';
import { resolveRelationship, type Relationship } from './relationships.ts';
import { fieldSql, filterSql, type Level } from './where.ts';

/** Where a level's rows come from: a table or view, a mutation's RETURNING rows, or a function. */
export interface ReadSource {
  from: string;
  alias: string;
  name: string;
  columns: Column[];
  /** The relation whose foreign keys embeds may follow, if any. */
  relationName: string | null;
}

export interface BuiltLevel {
  selectList: string[];
  outputs: string[];
  joins: string;
  where: string[];
  /** ` group by …` when the level aggregates: every selected item that is not an aggregate. */
  groupBy: string;
  orderBy: string;
  paging: string;
  /** Whether any selected item is an aggregate (embeds are then grouped as jsonb). */
  aggregates: boolean;
  /** Positions (1-based) of the selected items that are not aggregates. */
  grouped: number[];
}

export interface BuildContext {
  cache: SchemaCache;
  /** PostgREST's db-aggregates-enabled: off, aggregates are refused with PGRST123. */
  aggregates: boolean;
  /** text/csv: embeds are rendered as jsonb, as PostgREST selects them. */
  csv: boolean;
  params: Params;
  nodes: Map<string, NodeOptions>;
  usedPaths: Set<string>;
  counter: number;
}

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

function castSql(cache: SchemaCache, cast: string): string {
  const name = TYPE_ALIASES[cast.toLowerCase()] ?? cast.toLowerCase();
  // The cast names a type; only types the schema cache knows reach the SQL, quoted.
  if (!cache.types.has(name)) {
    throw new RestError(400, '42704', `type "${cast}" does not exist`);
  }
  return `::${ident(name)}`;
}

const AGGREGATE_SQL = { count: 'count', sum: 'sum', avg: 'avg', max: 'max', min: 'min' } as const;

/** A selected column, or an aggregate of one (`col::cast.sum()::cast`, `count()`), and its output name. */
function columnSql(ctx: BuildContext, level: Level, item: ColumnItem): [string, string] {
  if (item.aggregate) {
    if (!ctx.aggregates) {
      throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
    }
    const inner =
      item.field.name === '*' && item.field.path.length === 0
        ? '*'
        : fieldSql(level, item.field, ctx.params) + (item.cast ? castSql(ctx.cache, item.cast) : '');
    const expr =
      `${AGGREGATE_SQL[item.aggregate]}(${inner})` +
      (item.aggregateCast ? castSql(ctx.cache, item.aggregateCast) : '');
    return [expr, item.alias ?? item.aggregate];
  }
  // `count` that is no column: Postgres reads `rel.count` as count(rel), PostgREST's pre-aggregate count.
  if (item.field.name === 'count' && item.field.path.length === 0 && !level.columns.has('count')) {
    return [`count(*)${item.cast ? castSql(ctx.cache, item.cast) : ''}`, item.alias ?? 'count'];
  }
  const expr = fieldSql(level, item.field, ctx.params) + (item.cast ? castSql(ctx.cache, item.cast) : '');
  return [expr, item.alias ?? fieldOutputName(item.field)];
}

/**
 * The child's FROM and its join conditions to the parent. Many-to-many goes through the junction table
 * (inner-joined, so only linked targets remain), whose row-level security applies like any table's; a
 * computed relationship calls its function with the parent row, rebuilt as the function's row type.
 */
function joinSql(
  ctx: BuildContext,
  rel: Relationship,
  alias: string,
  parent: ReadSource,
): { from: string; on: string[] } {
  const parentAlias = parent.alias;
  if (rel.computed !== null) {
    const argType = ctx.cache.functions.get(rel.computed)?.[0]?.args[0]?.type;
    const argRelation = ctx.cache.relations.get(parent.relationName ?? '');
    if (!argRelation || argType === undefined) {
      throw new RestError(500, 'PGRST000', 'Internal server error');
    }
    const row = `row(${argRelation.columns.map((c) => `${ident(parentAlias)}.${ident(c.name)}`).join(', ')})::${qualified(ctx.cache.schema, argRelation.name)}`;
    return { from: `${qualified(ctx.cache.schema, rel.computed)}(${row}) as ${ident(alias)}`, on: [] };
  }
  const target = `${qualified(ctx.cache.schema, rel.target.name)} as ${ident(alias)}`;
  if (!rel.junction) {
    const on = rel.pairs.map(([p, c]) => `${ident(alias)}.${ident(c)} = ${ident(parentAlias)}.${ident(p)}`);
    return { from: target, on };
  }
  const j = rel.junction;
  const jAlias = `${alias}_junction`;
  const toTarget = j.targetPairs.map(
    ([t, jc]) => `${ident(jAlias)}.${ident(jc)} = ${ident(alias)}.${ident(t)}`,
  );
  return {
    from: `${target} inner join ${qualified(ctx.cache.schema, j.name)} as ${ident(jAlias)} on ${toTarget.join(' and ')}`,
    on: j.sourcePairs.map(([p, jc]) => `${ident(jAlias)}.${ident(jc)} = ${ident(parentAlias)}.${ident(p)}`),
  };
}

function embedSql(
  ctx: BuildContext,
  source: ReadSource,
  level: Level,
  item: EmbedItem,
  path: string,
  out: BuiltLevel,
): void {
  if (source.relationName === null) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${source.name}' and '${item.relation}' in the schema cache`,
    );
  }
  const rel = resolveRelationship(ctx.cache, source.relationName, item.relation, item.hint);
  const n = ++ctx.counter;
  const alias = `pgrst_${n}`;
  const lateral = `pgrst_lat_${n}`;
  const outName = item.alias ?? item.relation;
  const childPath = path ? `${path}.${outName}` : outName;
  const child = buildLevel(
    ctx,
    {
      from: qualified(ctx.cache.schema, rel.target.name),
      alias,
      name: rel.target.name,
      columns: rel.target.columns,
      relationName: rel.target.name,
    },
    item.select,
    childPath,
  );
  const { from, on } = joinSql(ctx, rel, alias, source);
  const marker = item.spread && rel.toOne ? ['1 as pgrst_found'] : [];
  if (item.spread && child.aggregates) {
    // PostgREST 13 applies a to-one spread's aggregates in the parent's groups; not built here yet.
    throw new RestError(
      400,
      'PGRST127',
      'Feature not implemented',
      rel.toOne
        ? 'Aggregates inside a to-one spread are not implemented by this server.'
        : 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
    );
  }
  const conditions = [...on, ...child.where];
  const inner = `select ${[...child.selectList, ...marker].join(', ')} from ${from}${child.joins}${conditions.length > 0 ? ` where ${conditions.join(' and ')}` : ''}${child.groupBy}${child.orderBy}${child.paging}`;
  if (item.spread && rel.toOne) {
    out.joins += ` left join lateral (${inner}) as ${ident(lateral)} on true`;
    child.outputs.forEach((o) => {
      out.selectList.push(`${ident(lateral)}.${ident(o)} as ${ident(o)}`);
      out.grouped.push(out.selectList.length);
    });
    out.outputs.push(...child.outputs);
  } else if (item.spread) {
    const aggs = child.outputs.map((o) => `json_agg(pgrst_e.${ident(o)}) as ${ident(o)}`);
    out.joins += ` left join lateral (select ${[...aggs, 'count(*) as pgrst_found'].join(', ')} from (${inner}) as pgrst_e) as ${ident(lateral)} on true`;
    child.outputs.forEach((o) =>
      out.selectList.push(`coalesce(${ident(lateral)}.${ident(o)}, '[]') as ${ident(o)}`),
    );
    out.outputs.push(...child.outputs);
  } else {
    const agg = rel.toOne ? 'row_to_json(pgrst_e)' : 'json_agg(pgrst_e)';
    out.joins += ` left join lateral (select ${agg} as body from (${inner}) as pgrst_e) as ${ident(lateral)} on true`;
    // An empty embed (`rel!inner()`) only filters; PostgREST leaves it out of the result.
    if (item.select.length > 0) {
      // Grouped by when the parent aggregates: json has no equality, jsonb has (PostgREST embeds jsonb).
      const cast = out.aggregates || ctx.csv ? '::jsonb' : '';
      out.selectList.push(
        rel.toOne
          ? `${ident(lateral)}.body${cast} as ${ident(outName)}`
          : `coalesce(${ident(lateral)}.body, '[]')${cast} as ${ident(outName)}`,
      );
      out.grouped.push(out.selectList.length);
      out.outputs.push(outName);
    }
  }
  if (item.join === 'inner') {
    const found = !item.spread
      ? `${ident(lateral)}.body is not null`
      : rel.toOne
        ? `${ident(lateral)}.pgrst_found is not null`
        : `${ident(lateral)}.pgrst_found > 0`;
    out.where.push(found);
  }
  level.embeds.set(outName, lateral);
}

/** Builds one level of a read: its columns, embeds (lateral joins), filters, order and paging. */
export function buildLevel(
  ctx: BuildContext,
  source: ReadSource,
  items: SelectItem[],
  path: string,
): BuiltLevel {
  ctx.usedPaths.add(path);
  const level: Level = {
    alias: source.alias,
    name: source.name,
    columns: new Map(source.columns.map((c) => [c.name, c])),
    embeds: new Map(),
  };
  const out: BuiltLevel = {
    selectList: [],
    outputs: [],
    joins: '',
    where: [],
    groupBy: '',
    orderBy: '',
    paging: '',
    aggregates: items.some((i) => i.kind === 'column' && i.aggregate !== undefined),
    grouped: [],
  };
  for (const item of items) {
    if (item.kind === 'star') {
      for (const c of source.columns) {
        out.selectList.push(`${ident(source.alias)}.${ident(c.name)}`);
        out.outputs.push(c.name);
        out.grouped.push(out.selectList.length);
      }
    } else if (item.kind === 'column') {
      const [expr, name] = columnSql(ctx, level, item);
      out.selectList.push(`${expr} as ${ident(name)}`);
      out.outputs.push(name);
      if (!item.aggregate) {
        out.grouped.push(out.selectList.length);
      }
    } else {
      embedSql(ctx, source, level, item, path, out);
    }
  }
  // PostgREST's automatic GROUP BY: every selected item that is not an aggregate.
  if (out.aggregates && out.grouped.length > 0) {
    out.groupBy = ` group by ${out.grouped.join(', ')}`;
  }
  const options = ctx.nodes.get(path);
  if (options) {
    out.where.push(...options.filters.map((f) => filterSql(level, f, ctx.params)));
    const terms = options.order.map((t) => {
      const dir = t.direction ? ` ${t.direction}` : '';
      const nulls = t.nulls ? ` nulls ${t.nulls}` : '';
      return `${fieldSql(level, t.field, ctx.params)}${dir}${nulls}`;
    });
    out.orderBy = terms.length > 0 ? ` order by ${terms.join(', ')}` : '';
    out.paging =
      (options.limit !== null ? ` limit ${ctx.params.add(options.limit)}` : '') +
      (options.offset !== null ? ` offset ${ctx.params.add(options.offset)}` : '');
  }
  return out;
}

/** Rejects `rel.col=…` options for resources the select does not embed (PostgREST's PGRST108). */
export function checkUnusedPaths(ctx: BuildContext): void {
  for (const [path, options] of ctx.nodes) {
    const used =
      options.filters.length + options.order.length > 0 || options.limit !== null || options.offset !== null;
    if (used && !ctx.usedPaths.has(path)) {
      throw new RestError(
        400,
        'PGRST108',
        `'${path}' is not an embedded resource in this request`,
        null,
        `Verify that '${path}' is included in the 'select' query parameter.`,
      );
    }
  }
}
