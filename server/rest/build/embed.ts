import { RestError } from '../errors.ts';
import type { EmbedItem, SelectItem } from '../parse/select.ts';
import { ident, qualified } from '../sql.ts';
import type { BuildContext, BuiltLevel, LevelMode, ReadSource } from './shapes.ts';
import { resolveRelationship, type Relationship } from './relationships.ts';
import { relatedAlias } from './related-order.ts';
import { applyAggregate } from './select-column.ts';
import type { Level } from './where.ts';

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
    // The function is chosen by Postgres among its overloads from the row's type.
    const argRelation = ctx.cache.relations.get(parent.relationName ?? '');
    if (!argRelation) {
      throw new RestError('PGRSTX00', 'Internal server error');
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

/** Where an embed goes: the parent level being built. */
export interface EmbedTarget {
  source: ReadSource;
  level: Level;
  item: EmbedItem;
  path: string;
  out: BuiltLevel;
  mode: LevelMode;
  /** Output names of this level's embeds that its `order` names (`rel(col)`). */
  ordered: Set<string>;
}

type BuildLevel = (
  ctx: BuildContext,
  source: ReadSource,
  items: SelectItem[],
  path: string,
  mode: LevelMode,
) => BuiltLevel;

/**
 * A to-one spread's outputs become the parent's columns. Its aggregates (hoisted from it and from to-one
 * spreads within it) are applied here, in the parent's groups, unless the parent is itself a to-one spread,
 * which passes them on: PostgREST 13 applies them at the nearest level that is no such spread.
 */
function spreadToOne(t: EmbedTarget, lateral: string, child: BuiltLevel): void {
  const { out, mode } = t;
  for (const o of child.outputs) {
    const value = `${ident(lateral)}.${ident(o)}`;
    const aggregate = child.hoisted.get(o);
    if (aggregate && mode.spreadToOne) {
      out.selectList.push(`${value} as ${ident(o)}`);
      out.hoisted.set(o, aggregate);
    } else if (aggregate) {
      out.selectList.push(`${applyAggregate(aggregate, value)} as ${ident(o)}`);
    } else {
      out.selectList.push(`${value} as ${ident(o)}`);
      out.grouped.push(out.selectList.length);
    }
  }
  out.outputs.push(...child.outputs);
}

/** Adds one embedded resource (`rel(…)`, `...rel(…)`) to the level being built, as a lateral join. */
export function embedSql(ctx: BuildContext, t: EmbedTarget, buildLevel: BuildLevel): void {
  const { source, level, item, path, out } = t;
  if (source.relationName === null) {
    throw new RestError(
      'PGRST200',
      `Could not find a relationship between '${source.name}' and '${item.relation}' in the schema cache`,
    );
  }
  const rel = resolveRelationship(ctx.cache, source.relationName, item.relation, item.hint);
  const outName = item.alias ?? item.relation;
  const childPath = path ? `${path}.${outName}` : outName;
  const depth = childPath.split('.').length;
  // PostgREST's aliases (Plan.hs addRels): the embedded table as `<table>_<depth>`, its lateral join as
  // `<parent>_<name>_<depth>`. Postgres names them in its errors (an unknown column, two embeds of one
  // relation under the same name), so the errors read as under PostgREST.
  const alias = `${rel.target.name}_${depth}`;
  const lateral = relatedAlias(source.relationName, outName, childPath);
  // A to-one resource an order term names shows its columns in the lateral join.
  const ordered = t.ordered.has(outName);
  const toOneSpread = item.spread && rel.toOne;
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
    { spreadToOne: toOneSpread },
  );
  const { from, on } = joinSql(ctx, rel, alias, source);
  const marker = toOneSpread ? ['1 as pgrst_found'] : [];
  if (item.spread && !rel.toOne && child.aggregates) {
    throw new RestError(
      'PGRST127',
      'Feature not implemented',
      'Aggregates are not implemented for one-to-many or many-to-many spreads.',
    );
  }
  const conditions = [...on, ...child.where];
  const inner = `select ${[...child.selectList, ...marker].join(', ')} from ${from}${child.joins}${conditions.length > 0 ? ` where ${conditions.join(' and ')}` : ''}${child.groupBy}${child.orderBy}${child.paging}`;
  if (toOneSpread) {
    out.joins += ` left join lateral (${inner}) as ${ident(lateral)} on true`;
    spreadToOne(t, lateral, child);
  } else if (item.spread) {
    const aggs = child.outputs.map((o) => `json_agg(pgrst_e.${ident(o)}) as ${ident(o)}`);
    out.joins += ` left join lateral (select ${[...aggs, 'count(*) as pgrst_found'].join(', ')} from (${inner}) as pgrst_e) as ${ident(lateral)} on true`;
    for (const o of child.outputs) {
      out.selectList.push(`coalesce(${ident(lateral)}.${ident(o)}, '[]')::jsonb as ${ident(o)}`);
      out.grouped.push(out.selectList.length);
    }
    out.outputs.push(...child.outputs);
  } else {
    const agg = rel.toOne ? 'row_to_json(pgrst_e)' : 'json_agg(pgrst_e)';
    const columns = rel.toOne && ordered ? ', pgrst_e.*' : '';
    out.joins += ` left join lateral (select ${agg} as pgrst_body${columns} from (${inner}) as pgrst_e) as ${ident(lateral)} on true`;
    // An empty embed (`rel!inner()`) only filters; PostgREST leaves it out of the result.
    if (item.select.length > 0) {
      out.selectList.push(
        rel.toOne
          ? `${ident(lateral)}.pgrst_body::jsonb as ${ident(outName)}`
          : `coalesce(${ident(lateral)}.pgrst_body, '[]')::jsonb as ${ident(outName)}`,
      );
      out.grouped.push(out.selectList.length);
      out.outputs.push(outName);
    }
  }
  if (item.join === 'inner') {
    const found = !item.spread
      ? `${ident(lateral)}.pgrst_body is not null`
      : rel.toOne
        ? `${ident(lateral)}.pgrst_found is not null`
        : `${ident(lateral)}.pgrst_found > 0`;
    out.where.push(found);
  }
  level.embeds.set(outName, lateral);
  out.related.set(outName, { lateral, toOne: rel.toOne });
}
