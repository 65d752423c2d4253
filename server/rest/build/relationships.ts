import { RestError } from '../errors.ts';
import { closest, fuzzyMatches } from '../fuzzy.ts';
import type { FkRel, Rel } from '../relationships.ts';
import type { SchemaCache } from '../schema-cache.ts';
import type { Relation } from '../introspection.ts';

/** How an embedded resource joins its parent: column pairs, a junction table, or a function of the row. */
export interface Relationship {
  target: Relation;
  toOne: boolean;
  /** (parent column, child column) pairs. */
  pairs: [string, string][];
  junction: {
    name: string;
    /** (parent column, junction column) pairs. */
    sourcePairs: [string, string][];
    /** (target column, junction column) pairs. */
    targetPairs: [string, string][];
  } | null;
  /** The function of a computed relationship, called with the parent row. */
  computed: string | null;
}

const singleColumn = (r: FkRel, side: 0 | 1) => (r.columns.length === 1 ? r.columns[0]![side] : null);

/**
 * Whether a relationship is the one an embed `target!hint` names, by PostgREST's rules (Plan.hs findRel):
 * the target is the related relation, or (for tables) the foreign key's name or its single column; a
 * hint names the constraint, a single column on either side, or the junction. In a self-reference the
 * table's own name means its children and the column name its parent.
 */
function matches(r: Rel, target: string, hint: string | null): boolean {
  if (r.kind === 'computed') {
    return r.fn === target;
  }
  const named = r.foreignTable === target;
  if (r.isSelf) {
    return hint === null
      ? (named && r.card === 'o2m') || (singleColumn(r, 0) === target && r.card === 'm2o')
      : named && r.card === 'o2m' && singleColumn(r, 1) === hint;
  }
  if (hint === null) {
    return (
      named ||
      (!r.foreignTableIsView && r.card !== 'm2m' && (r.cons === target || singleColumn(r, 0) === target))
    );
  }
  return (
    named &&
    (r.card === 'm2m'
      ? r.junction!.table === hint
      : r.cons === hint || singleColumn(r, 0) === hint || singleColumn(r, 1) === hint)
  );
}

const fmt = (cols: readonly string[]) => `(${cols.join(', ')})`;
const CARDINALITY = { o2m: 'one-to-many', m2o: 'many-to-one', o2o: 'one-to-one', m2m: 'many-to-many' };

/** PostgREST's `details` entry for one candidate of an ambiguous embed (Error.hs compressedRel). */
function describe(r: FkRel) {
  const j = r.junction;
  return {
    cardinality: CARDINALITY[r.card],
    embedding: `${r.table} with ${r.foreignTable}`,
    relationship: j
      ? `${j.table} using ${j.cons1}${fmt(j.sourceColumns.map((p) => p[1]))} and ${j.cons2}${fmt(j.targetColumns.map((p) => p[1]))}`
      : `${r.cons} using ${r.table}${fmt(r.columns.map((p) => p[0]))} and ${r.foreignTable}${fmt(r.columns.map((p) => p[1]))}`,
  };
}

/** "Perhaps you meant …": the closest origin when it has no relationships, else the closest target. */
function noRelHint(cache: SchemaCache, origin: string, target: string): string | null {
  const fromOrigin = cache.rels.get(origin);
  if (!fromOrigin) {
    const parent = closest([...cache.rels.keys()], origin);
    return parent === null ? null : `Perhaps you meant '${parent}' instead of '${origin}'.`;
  }
  // A target that is among them gets no suggestion (it is the hint that failed, not the name).
  const child =
    fuzzyMatches(
      fromOrigin.map((r) => r.foreignTable),
      target,
    ).find(([score]) => score < 1)?.[1] ?? null;
  return child === null ? null : `Perhaps you meant '${child}' instead of '${target}'.`;
}

function resolved(cache: SchemaCache, r: Rel): Relationship {
  const target = cache.relations.get(r.foreignTable)!;
  if (r.kind === 'computed') {
    return { target, toOne: r.toOne, pairs: [], junction: null, computed: r.fn };
  }
  const j = r.junction;
  return {
    target,
    toOne: r.card === 'm2o' || r.card === 'o2o',
    pairs: r.columns,
    junction: j && { name: j.table, sourcePairs: j.sourceColumns, targetPairs: j.targetColumns },
    computed: null,
  };
}

/** Finds the one relationship an embed means (PGRST200 none, PGRST201 several), as PostgREST does. */
export function resolveRelationship(
  cache: SchemaCache,
  origin: string,
  target: string,
  hint: string | null,
): Relationship {
  const found = (cache.rels.get(origin) ?? []).filter(
    (r) => matches(r, target, hint) && cache.relations.has(r.foreignTable),
  );
  if (found.length === 0) {
    const using = hint === null ? '' : `' using the hint '${hint}`;
    throw new RestError(
      'PGRST200',
      `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin}' and '${target}${using}' in the schema '${cache.schema}', but no matches were found.`,
      noRelHint(cache, origin, target),
    );
  }
  if (found.length > 1) {
    const fkRels = found.filter((r): r is FkRel => r.kind === 'fk');
    throw new RestError(
      'PGRST201',
      `Could not embed because more than one relationship was found for '${origin}' and '${target}'`,
      fkRels.map(describe),
      `Try changing '${target}' to one of the following: ${fkRels.map((r) => `'${r.foreignTable}!${r.junction?.table ?? r.cons}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  return resolved(cache, found[0]!);
}
