import { expandColumns, type KeyDepType, type ViewKeyDependency } from './view-keys.ts';

/** A foreign key as a relationship's origin sees it (many-to-one, or one-to-one seen from the referencing side). */
export interface ForeignKeyEnds {
  cons: string;
  oneToOne: boolean;
  from: [schema: string, name: string];
  to: [schema: string, name: string];
  /** (referencing column, referenced column) pairs. */
  columns: [string, string][];
}

export interface ViewRelationship {
  table: string;
  foreignTable: string;
  isSelf: boolean;
  oneToOne: boolean;
  cons: string;
  columns: [string, string][];
  tableIsView: boolean;
  foreignTableIsView: boolean;
}

/**
 * The relationships a foreign key gives the views of `schema` (PostgREST's addViewM2OAndO2ORels): view → table
 * when a view shows the referencing columns, table → view when one shows the referenced columns, and view →
 * view for each pair; one per combination of repeated view columns. Both ends must be in `schema`.
 */
export function viewRelationships(
  schema: string,
  fks: readonly ForeignKeyEnds[],
  deps: readonly ViewKeyDependency[],
): ViewRelationship[] {
  const out: ViewRelationship[] = [];
  const inSchema = ([s]: [string, string]) => s === schema;
  for (const fk of fks) {
    const on = (type: KeyDepType, [s, n]: [string, string]) =>
      deps.filter((d) => d.type === type && d.cons === fk.cons && d.tableSchema === s && d.tableName === n);
    const fromViews = on('fk', fk.from).flatMap((d) => expandColumns(d.columns).map((cols) => ({ d, cols })));
    const toViews = on('fk_ref', fk.to).flatMap((d) => expandColumns(d.columns).map((cols) => ({ d, cols })));
    const rel = (
      table: string,
      foreignTable: string,
      columns: [string, string][],
      views: [boolean, boolean],
    ) =>
      out.push({
        table,
        foreignTable,
        isSelf: views[0] && views[1] && table === foreignTable,
        oneToOne: fk.oneToOne,
        cons: fk.cons,
        columns,
        tableIsView: views[0],
        foreignTableIsView: views[1],
      });
    for (const { d, cols } of fromViews) {
      if (inSchema(fk.to)) {
        rel(
          d.view,
          fk.to[1],
          cols.map(([, v], i) => [v, fk.columns[i]![1]]),
          [true, false],
        );
      }
    }
    for (const { d, cols } of toViews) {
      if (inSchema(fk.from)) {
        rel(
          fk.from[1],
          d.view,
          fk.columns.map(([t], i) => [t, cols[i]![1]]),
          [false, true],
        );
      }
    }
    for (const a of fromViews) {
      for (const b of toViews) {
        rel(
          a.d.view,
          b.d.view,
          a.cols.map(([, v], i) => [v, b.cols[i]![1]]),
          [true, true],
        );
      }
    }
  }
  return out;
}
