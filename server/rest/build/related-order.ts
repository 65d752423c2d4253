import { notEmbedded, RestError } from '../errors.ts';
import type { OrderTerm } from '../parse/query.ts';
import { ident, type Params } from '../sql.ts';
import { jsonPathSql } from './where.ts';

/** An embedded resource as an order term may name it: by its output name (alias, else relation). */
export interface RelatedTarget {
  /** The lateral join holding the resource's selected columns. */
  lateral: string;
  toOne: boolean;
}

/** The order terms of a level that name an embedded resource (`rel(col)`), by that name. */
export const orderedRelations = (order: OrderTerm[] | undefined): Set<string> =>
  new Set((order ?? []).flatMap((t) => (t.relation === null ? [] : [t.relation])));

/**
 * The lateral alias PostgREST gives an embedded resource (Plan.hs addRels, relAggAlias): the parent's name,
 * the resource's output name and its depth. A related order refers to it, so Postgres words an unknown column
 * (42703, with its "Perhaps you meant" hint) exactly as it does under PostgREST.
 */
export const relatedAlias = (parent: string, outName: string, childPath: string) =>
  `${parent}_${outName}_${childPath.split('.').length}`;

/**
 * `rel(col)` in `order` (PostgREST's addRelatedOrders): `rel` must be embedded at this level (400 PGRST108)
 * and to-one (400 PGRST118); the term orders by the column as the embed selects it.
 */
export function relatedOrderSql(
  term: OrderTerm & { relation: string },
  from: string,
  related: Map<string, RelatedTarget>,
  params: Params,
): string {
  const target = related.get(term.relation);
  if (!target) {
    throw notEmbedded(term.relation);
  }
  if (!target.toOne) {
    throw new RestError(
      'PGRST118',
      `A related order on '${term.relation}' is not possible`,
      `'${from}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`,
    );
  }
  return jsonPathSql(`${ident(target.lateral)}.${ident(term.field.name)}`, term.field.path, params);
}
