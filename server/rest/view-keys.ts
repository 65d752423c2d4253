import { isTreeNode, parseNodeTree, type NodeValue } from './node-tree.ts';

/**
 * How PostgREST (SchemaCache.hs, 12/13) gives views the keys of their tables: each view column is followed
 * back through its rewrite rule's target list (`resorigtbl`/`resorigcol`, through views of views) to a
 * table column; a table's primary key or foreign key whose columns all appear in a view becomes a key of
 * that view, one dependency per combination when a column appears several times.
 */
export interface ViewSource {
  oid: number;
  schema: string;
  name: string;
  /** Column names by attnum - 1. */
  columns: string[];
  /** `pg_rewrite.ev_action::text` of the view's SELECT rule. */
  action: string;
}

/** A primary or foreign key of a table that a view of the schema may expose. */
export interface TableKey {
  name: string;
  type: 'p' | 'f';
  table: number;
  tableSchema: string;
  tableName: string;
  columns: number[];
  columnNames: string[];
  /** For a foreign key: the referenced table and columns. */
  refTable: number | null;
  refSchema: string | null;
  refName: string | null;
  refColumns: number[] | null;
  refColumnNames: string[] | null;
  /** The foreign key's columns are exactly a primary key or unique constraint of its table. */
  oneToOne: boolean;
}

/** PostgREST's KeyDep: a primary key, the referencing side of a foreign key, or its referenced side. */
export type KeyDepType = 'pk' | 'fk' | 'fk_ref';

export interface ViewKeyDependency {
  view: string;
  viewSchema: string;
  /** Schema-qualified table the key belongs to, as `schema.name`. */
  tableSchema: string;
  tableName: string;
  cons: string;
  type: KeyDepType;
  /** Per key column in key order: the table column and every view column showing it (by view column order). */
  columns: [string, string[]][];
}

type Origin = [table: number, column: number];

/** The (resno → origin) pairs of the first query's target list; columns with no table origin are left out. */
function targetOrigins(action: string): Map<number, Origin> {
  const out = new Map<number, Origin>();
  const tree: NodeValue = parseNodeTree(action);
  const query = Array.isArray(tree) ? tree[0] : tree;
  if (!isTreeNode(query)) {
    return out;
  }
  const targets = query.fields.get('targetList');
  for (const entry of Array.isArray(targets) ? targets : []) {
    if (!isTreeNode(entry)) {
      continue;
    }
    const num = (k: string) => Number(entry.fields.get(k));
    if (entry.fields.get('resjunk') !== 'true' && num('resorigtbl') > 0) {
      out.set(num('resno'), [num('resorigtbl'), num('resorigcol')]);
    }
  }
  return out;
}

/**
 * Every (view column, table column) link of the views of `schema`, following views of views among
 * `views` (the schema's views and those they read from in searchable schemas), without looping on cycles.
 */
function viewColumnOrigins(schema: string, views: readonly ViewSource[]) {
  const byOid = new Map(views.map((v) => [v.oid, v]));
  const origins = new Map<number, Map<number, Origin>>();
  const originsOf = (v: ViewSource) => {
    let o = origins.get(v.oid);
    if (!o) {
      try {
        o = targetOrigins(v.action);
      } catch {
        // A definition this reader cannot follow gives the view no keys, as it would have none in PostgREST.
        o = new Map();
      }
      origins.set(v.oid, o);
    }
    return o;
  };
  const links: { view: ViewSource; column: number; origin: Origin }[] = [];
  for (const view of views.filter((v) => v.schema === schema)) {
    for (const [column, first] of originsOf(view)) {
      let origin: Origin | undefined = first;
      const seen = new Set<number>([view.oid]);
      while (origin) {
        links.push({ view, column, origin });
        const inner = byOid.get(origin[0]);
        if (!inner || seen.has(inner.oid)) {
          break;
        }
        seen.add(inner.oid);
        origin = originsOf(inner).get(origin[1]);
      }
    }
  }
  return links;
}

interface KeySide {
  type: KeyDepType;
  cons: string;
  table: number;
  tableSchema: string;
  tableName: string;
  attnums: number[];
  names: string[];
}

/** The sides of the keys a view may show: a primary key, and both ends of a foreign key. */
const keySides = (keys: readonly TableKey[]): KeySide[] =>
  keys.flatMap((k) => {
    const own: KeySide = {
      type: k.type === 'p' ? 'pk' : 'fk',
      cons: k.name,
      table: k.table,
      tableSchema: k.tableSchema,
      tableName: k.tableName,
      attnums: k.columns,
      names: k.columnNames,
    };
    if (k.type !== 'f' || k.refTable === null || k.refColumns === null || k.refColumnNames === null) {
      return [own];
    }
    const referenced: KeySide = {
      type: 'fk_ref',
      cons: k.name,
      table: k.refTable,
      tableSchema: k.refSchema ?? '',
      tableName: k.refName ?? '',
      attnums: k.refColumns,
      names: k.refColumnNames,
    };
    return [own, referenced];
  });

/** The key dependencies of the views of `schema` (PostgREST's allViewsKeyDependencies). */
export function viewKeyDependencies(
  schema: string,
  views: readonly ViewSource[],
  keys: readonly TableKey[],
): ViewKeyDependency[] {
  // view oid → (table oid/table column → the view's columns showing it).
  const shown = new Map<number, { view: ViewSource; columns: Map<string, number[]> }>();
  for (const { view, column, origin } of viewColumnOrigins(schema, views)) {
    const entry = shown.get(view.oid) ?? { view, columns: new Map<string, number[]>() };
    const id = `${origin[0]}/${origin[1]}`;
    const list = entry.columns.get(id) ?? [];
    if (!list.includes(column)) {
      list.push(column);
    }
    entry.columns.set(id, list);
    shown.set(view.oid, entry);
  }
  const sides = keySides(keys);
  const deps: ViewKeyDependency[] = [];
  for (const { view, columns: showing } of shown.values()) {
    for (const side of sides) {
      const columns = side.attnums.map((attnum, i): [string, string[]] => [
        side.names[i]!,
        [...(showing.get(`${side.table}/${attnum}`) ?? [])]
          .sort((a, b) => a - b)
          .map((c) => view.columns[c - 1]!),
      ]);
      // Only keys whose every column the view shows: no partial primary or foreign keys.
      if (columns.length > 0 && columns.every(([, vs]) => vs.length > 0)) {
        deps.push({
          view: view.name,
          viewSchema: view.schema,
          tableSchema: side.tableSchema,
          tableName: side.tableName,
          cons: side.cons,
          type: side.type,
          columns,
        });
      }
    }
  }
  return deps;
}

/** Every way to pick one view column per key column (a column shown twice gives two relationships). */
export function expandColumns(columns: [string, string[]][]): [string, string][][] {
  return columns.reduce<[string, string][][]>(
    (acc, [tableColumn, viewColumns]) =>
      acc.flatMap((prefix) => viewColumns.map((v): [string, string][] => [...prefix, [tableColumn, v]])),
    [[]],
  );
}

/** A view's primary key: the first view column of each column of each table primary key it shows. */
export function viewPrimaryKey(deps: readonly ViewKeyDependency[], view: string): string[] {
  return deps
    .filter((d) => d.type === 'pk' && d.view === view)
    .flatMap((d) => d.columns.map(([, viewColumns]) => viewColumns[0]!));
}
