import type { ForeignKey, Relation } from './introspection.ts';
import type { ViewRelationship } from './view-relationships.ts';

/**
 * The relationships PostgREST derives from the schema (SchemaCache.hs, 12/13): every foreign key gives a
 * many-to-one (one-to-one when its columns are a primary key or unique constraint) and its inverse; a
 * table with two foreign keys whose columns all belong to its primary key links the two sides
 * many-to-many; a function taking one row of a relation and returning rows of another is a computed
 * relationship, which replaces a detected one of the same name.
 */
export type Cardinality = 'o2m' | 'm2o' | 'o2o' | 'm2m';

export interface Junction {
  table: string;
  cons1: string;
  cons2: string;
  /** (origin column, junction column) pairs. */
  sourceColumns: [string, string][];
  /** (target column, junction column) pairs. */
  targetColumns: [string, string][];
}

export interface FkRel {
  kind: 'fk';
  table: string;
  foreignTable: string;
  isSelf: boolean;
  card: Cardinality;
  cons: string;
  /** (origin column, target column) pairs; empty for many-to-many. */
  columns: [string, string][];
  /** One-to-one seen from the referenced side. */
  isParent: boolean;
  junction: Junction | null;
  tableIsView: boolean;
  foreignTableIsView: boolean;
}

export interface ComputedRel {
  kind: 'computed';
  fn: string;
  table: string;
  foreignTable: string;
  toOne: boolean;
}

export type Rel = FkRel | ComputedRel;

interface ComputedSource {
  name: string;
  rows: number;
  returnsSet: boolean;
  argRelation: string | null;
  returnRelation: string | null;
}

const CARD_ORDER: Record<Cardinality, number> = { o2m: 0, m2o: 1, o2o: 2, m2m: 3 };

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const cmpBool = (a: boolean, b: boolean) => Number(a) - Number(b);

/** Lists of column pairs compared as Haskell compares them: element by element, a prefix first. */
function cmpPairs(a: readonly [string, string][], b: readonly [string, string][]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = cmp(a[i]![0], b[i]![0]) || cmp(a[i]![1], b[i]![1]);
    if (c !== 0) {
      return c;
    }
  }
  return a.length - b.length;
}

/**
 * PostgREST's order of the relationships from one origin (the derived Ord of its Relationship): by target,
 * self-references last, then one-to-many, many-to-one, one-to-one, many-to-many, then constraint (or
 * junction) and columns, then whether each end is a view.
 */
function compareRels(a: FkRel, b: FkRel): number {
  const ja = a.junction;
  const jb = b.junction;
  return (
    cmp(a.foreignTable, b.foreignTable) ||
    cmpBool(a.isSelf, b.isSelf) ||
    CARD_ORDER[a.card] - CARD_ORDER[b.card] ||
    (ja && jb
      ? cmp(ja.table, jb.table) ||
        cmp(ja.cons1, jb.cons1) ||
        cmp(ja.cons2, jb.cons2) ||
        cmpPairs(ja.sourceColumns, jb.sourceColumns) ||
        cmpPairs(ja.targetColumns, jb.targetColumns)
      : cmp(a.cons, b.cons) || cmpPairs(a.columns, b.columns) || cmpBool(a.isParent, b.isParent)) ||
    cmpBool(a.tableIsView, b.tableIsView) ||
    cmpBool(a.foreignTableIsView, b.foreignTableIsView)
  );
}

const isView = (relations: Map<string, Relation>, name: string) => {
  const kind = relations.get(name)?.kind;
  return kind === 'v' || kind === 'm';
};

export function buildRelationships(
  relations: Map<string, Relation>,
  fks: readonly ForeignKey[],
  functions: readonly ComputedSource[],
  viewRels: readonly ViewRelationship[] = [],
): Map<string, Rel[]> {
  const fromViews = viewRels.map((v): FkRel => ({
    ...v,
    kind: 'fk',
    card: v.oneToOne ? 'o2o' : 'm2o',
    isParent: false,
    junction: null,
  }));
  const tableFks = fks.map((fk): FkRel => ({
    kind: 'fk',
    table: fk.from,
    foreignTable: fk.to,
    isSelf: fk.from === fk.to,
    card: fk.oneToOne ? 'o2o' : 'm2o',
    cons: fk.name,
    columns: fk.fromColumns.map((c, i) => [c, fk.toColumns[i]!]),
    isParent: false,
    junction: null,
    tableIsView: isView(relations, fk.from),
    foreignTableIsView: isView(relations, fk.to),
  }));
  const direct = [...tableFks, ...fromViews];
  const junctions: FkRel[] = [];
  for (const a of direct) {
    for (const b of direct) {
      if (a.card !== 'm2o' || b.card !== 'm2o' || a.table !== b.table || a.cons === b.cons) {
        continue;
      }
      const pk = relations.get(a.table)?.pk ?? [];
      if (![...a.columns, ...b.columns].every(([jc]) => pk.includes(jc))) {
        continue;
      }
      junctions.push({
        kind: 'fk',
        table: a.foreignTable,
        foreignTable: b.foreignTable,
        isSelf: a.foreignTable === b.foreignTable,
        card: 'm2m',
        cons: '',
        columns: [],
        isParent: false,
        junction: {
          table: a.table,
          cons1: a.cons,
          cons2: b.cons,
          sourceColumns: a.columns.map(([jc, c]) => [c, jc]),
          targetColumns: b.columns.map(([jc, c]) => [c, jc]),
        },
        tableIsView: a.foreignTableIsView,
        foreignTableIsView: b.foreignTableIsView,
      });
    }
  }
  const inverse: FkRel[] = direct.map((r) => ({
    ...r,
    table: r.foreignTable,
    foreignTable: r.table,
    card: r.card === 'm2o' ? 'o2m' : 'o2o',
    columns: r.columns.map(([a, b]) => [b, a]),
    isParent: r.card === 'o2o',
    tableIsView: r.foreignTableIsView,
    foreignTableIsView: r.tableIsView,
  }));
  // Keyed as PostgREST keys them: (origin, target) for detected ones, (origin, function) for computed ones.
  const byPair = new Map<string, Rel[]>();
  for (const r of [...direct, ...junctions, ...inverse]) {
    const key = `${r.table}\u0000${r.foreignTable}`;
    byPair.set(key, [...(byPair.get(key) ?? []), r]);
  }
  for (const f of functions) {
    if (f.argRelation !== null && f.returnRelation !== null) {
      byPair.set(`${f.argRelation}\u0000${f.name}`, [
        {
          kind: 'computed',
          fn: f.name,
          table: f.argRelation,
          foreignTable: f.returnRelation,
          toOne: !f.returnsSet || f.rows === 1,
        },
      ]);
    }
  }
  const byOrigin = new Map<string, Rel[]>();
  for (const list of byPair.values()) {
    const origin = list[0]!.table;
    byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), ...list]);
  }
  for (const list of byOrigin.values()) {
    list.sort((a, b) =>
      a.kind === 'computed' || b.kind === 'computed'
        ? Number(a.kind === 'computed') - Number(b.kind === 'computed')
        : compareRels(a, b),
    );
  }
  return byOrigin;
}
