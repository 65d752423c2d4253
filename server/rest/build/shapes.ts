// The shapes the build steps hand each other: where a level's rows come from, a built level, what every
// step of one request's build reads, and the one row a rendered statement returns.
import type { NodeOptions } from '../parse/query.ts';
import type { Column } from '../introspection.ts';
import type { SchemaCache } from '../schema-cache.ts';
import type { Params } from '../sql.ts';
import type { HoistedAggregate } from './select-column.ts';
import type { RelatedTarget } from './related-order.ts';

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
  /** Whether the level applies aggregates. */
  aggregates: boolean;
  /** Positions (1-based) of the selected items that are not aggregates. */
  grouped: number[];
  /** Outputs of a to-one spread whose aggregate an ancestor applies (PostgREST 13's hoisting). */
  hoisted: Map<string, HoistedAggregate>;
  /** The level's embedded resources by output name, for `order=rel(col)`. */
  related: Map<string, RelatedTarget>;
}

export interface BuildContext {
  cache: SchemaCache;
  /** PostgREST's db-aggregates-enabled: off, aggregates are refused with PGRST123. */
  aggregates: boolean;
  params: Params;
  nodes: Map<string, NodeOptions>;
  usedPaths: Set<string>;
  /** db-max-rows for embedded resources (reads and function calls; null for writes or no limit). */
  maxRows?: number | null;
}

/** How a level is embedded in its parent. */
export interface LevelMode {
  /** A to-one spread: its outputs become the parent's, and so do its aggregates. */
  spreadToOne: boolean;
}

/** One row back: total (or null), page size and the rows as JSON text rendered by Postgres itself. */
export interface RenderedRow {
  total: number | string | null;
  page: number;
  body: string;
  inserted?: number | string | null;
}
