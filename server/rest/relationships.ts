import type { ForeignKey, Relation } from './schema-cache.ts';

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

/** PostgREST lists candidates in its derived order: self first…, then O2M, M2O, O2O, M2M, then by name. */
function compareRels(a: FkRel, b: FkRel): number {
  return (
    Number(a.isSelf) - Number(b.isSelf) ||
    CARD_ORDER[a.card] - CARD_ORDER[b.card] ||
    cmp(a.junction?.table ?? a.cons, b.junction?.table ?? b.cons) ||
    cmp(a.junction?.cons1 ?? '', b.junction?.cons1 ?? '') ||
    cmp(a.junction?.cons2 ?? '', b.junction?.cons2 ?? '') ||
    cmp(JSON.stringify(a.columns), JSON.stringify(b.columns))
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
): Map<string, Rel[]> {
  const direct: FkRel[] = fks.map((fk) => ({
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
        : cmp(a.foreignTable, b.foreignTable) || compareRels(a, b),
    );
  }
  return byOrigin;
}
