import { notEmbedded } from '../errors.ts';
import type { SelectItem } from '../parse/select.ts';
import { ident } from '../sql.ts';
import { embedSql } from './embed.ts';
import type { BuildContext, BuiltLevel, LevelMode, ReadSource } from './shapes.ts';
import { orderedRelations, relatedOrderSql } from './related-order.ts';
import { columnSql } from './select-column.ts';
import { fieldSql, filterSql, type Level } from './where.ts';

const ROOT: LevelMode = { spreadToOne: false };

const isAggregate = (i: SelectItem) => i.kind === 'column' && i.aggregate !== undefined;

/** Whether a spread among `items` (or a spread within it) carries aggregates up to this level. */
const spreadsAggregates = (items: SelectItem[]): boolean =>
  items.some(
    (i) => i.kind === 'embed' && i.spread && (i.select.some(isAggregate) || spreadsAggregates(i.select)),
  );

/** Builds one level of a read: its columns, embeds (lateral joins), filters, order and paging. */
export function buildLevel(
  ctx: BuildContext,
  source: ReadSource,
  items: SelectItem[],
  path: string,
  mode: LevelMode = ROOT,
): BuiltLevel {
  ctx.usedPaths.add(path);
  const level: Level = {
    alias: source.alias,
    name: source.name,
    columns: new Map(source.columns.map((c) => [c.name, c])),
    embeds: new Map(),
    computedFields: true,
  };
  const out: BuiltLevel = {
    selectList: [],
    outputs: [],
    joins: '',
    where: [],
    groupBy: '',
    orderBy: '',
    paging: '',
    aggregates: !mode.spreadToOne && (items.some(isAggregate) || spreadsAggregates(items)),
    grouped: [],
    hoisted: new Map(),
    related: new Map(),
  };
  const given = ctx.nodes.get(path);
  const ordered = orderedRelations(given?.order);
  for (const item of items) {
    if (item.kind === 'star') {
      for (const c of source.columns) {
        out.selectList.push(`${ident(source.alias)}.${ident(c.name)}`);
        out.outputs.push(c.name);
        out.grouped.push(out.selectList.length);
      }
    } else if (item.kind === 'column') {
      const column = columnSql(ctx, level, item, mode.spreadToOne);
      out.selectList.push(`${column.expr} as ${ident(column.name)}`);
      out.outputs.push(column.name);
      if (column.hoisted) {
        out.hoisted.set(column.name, column.hoisted);
      } else if (!column.aggregate) {
        out.grouped.push(out.selectList.length);
      }
    } else {
      embedSql(ctx, { source, level, item, path, out, mode, ordered }, buildLevel);
    }
  }
  // PostgREST's automatic GROUP BY: every selected item that is not an aggregate.
  if (out.aggregates && out.grouped.length > 0) {
    out.groupBy = ` group by ${out.grouped.join(', ')}`;
  }
  // db-max-rows caps every embedded resource's rows too (the root's range is set by parse/range.ts).
  const options =
    path !== '' && ctx.maxRows != null
      ? {
          ...(given ?? { filters: [], order: [], offset: null }),
          limit: Math.min(given?.limit ?? ctx.maxRows, ctx.maxRows),
        }
      : given;
  if (options) {
    out.where.push(...options.filters.map((f) => filterSql(level, f, ctx.params)));
    const terms = options.order.map((t) => {
      const dir = t.direction ? ` ${t.direction}` : '';
      const nulls = t.nulls ? ` nulls ${t.nulls}` : '';
      const expr =
        t.relation === null
          ? fieldSql(level, t.field, ctx.params)
          : relatedOrderSql({ ...t, relation: t.relation }, source.name, out.related, ctx.params);
      return `${expr}${dir}${nulls}`;
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
      throw notEmbedded(path);
    }
  }
}
