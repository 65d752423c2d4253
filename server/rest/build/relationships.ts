import { RestError } from '../errors.ts';
import type { ForeignKey, Relation, SchemaCache } from '../schema-cache.ts';

/** A many-to-many link: the junction table and its two foreign keys (to the parent, to the target). */
export interface Junction {
  name: string;
  toSource: ForeignKey;
  toTarget: ForeignKey;
  /** (parent column, junction column) pairs. */
  sourcePairs: [string, string][];
  /** (target column, junction column) pairs. */
  targetPairs: [string, string][];
}

/** How an embedded resource joins its parent: column pairs (parent column, child column), or a junction. */
export interface Relationship {
  target: Relation;
  toOne: boolean;
  pairs: [string, string][];
  fk: ForeignKey;
  junction: Junction | null;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

function candidates(cache: SchemaCache, source: string, target: Relation): Relationship[] {
  const found: Relationship[] = [];
  for (const fk of cache.fks) {
    if (fk.from === source && fk.to === target.name) {
      // Many-to-one: the parent holds the foreign key.
      found.push({
        target,
        toOne: true,
        fk,
        pairs: fk.fromColumns.map((c, i) => [c, fk.toColumns[i]!]),
        junction: null,
      });
    }
    if (fk.to === source && fk.from === target.name) {
      // One-to-many (one-to-one when the child's key columns are unique).
      const unique =
        target.uniques.some((u) => sameSet(u, fk.fromColumns)) || sameSet(target.pk, fk.fromColumns);
      found.push({
        target,
        toOne: unique,
        fk,
        pairs: fk.toColumns.map((c, i) => [c, fk.fromColumns[i]!]),
        junction: null,
      });
    }
  }
  return [...found, ...manyToMany(cache, source, target)];
}

/**
 * Many-to-many through a junction table, as PostgREST finds them: a table with one foreign key to the
 * parent and another to the target, whose columns all belong to the junction's primary key.
 */
function manyToMany(cache: SchemaCache, source: string, target: Relation): Relationship[] {
  // PostgREST resolves no many-to-many self-relationships.
  if (source === target.name) {
    return [];
  }
  const found: Relationship[] = [];
  for (const toSource of cache.fks) {
    if (toSource.to !== source) {
      continue;
    }
    const junction = cache.relations.get(toSource.from);
    for (const toTarget of cache.fks) {
      if (toTarget.from !== toSource.from || toTarget.to !== target.name || toTarget.name === toSource.name) {
        continue;
      }
      const columns = [...toSource.fromColumns, ...toTarget.fromColumns];
      if (!junction || !columns.every((c) => junction.pk.includes(c))) {
        continue;
      }
      found.push({
        target,
        toOne: false,
        fk: toSource,
        pairs: [],
        junction: {
          name: junction.name,
          toSource,
          toTarget,
          sourcePairs: toSource.toColumns.map((c, i) => [c, toSource.fromColumns[i]!]),
          targetPairs: toTarget.toColumns.map((c, i) => [c, toTarget.fromColumns[i]!]),
        },
      });
    }
  }
  return found;
}

const singleColumnOf = (fk: ForeignKey) => [
  ...(fk.fromColumns.length === 1 ? [fk.fromColumns[0]] : []),
  ...(fk.toColumns.length === 1 ? [fk.toColumns[0]] : []),
];

/** A hint names the foreign key, one of its single columns, or (many-to-many) the junction table. */
const matchesHint = (r: Relationship, hint: string) =>
  r.junction ? r.junction.name === hint : r.fk.name === hint || singleColumnOf(r.fk).includes(hint);

const fmt = (cols: readonly string[]) => `(${cols.join(', ')})`;

/** PostgREST's `details` entry for one candidate of an ambiguous embed. */
function describe(r: Relationship, source: string, relation: string) {
  const embedding = `${source} with ${relation}`;
  if (r.junction) {
    const j = r.junction;
    return {
      cardinality: 'many-to-many',
      embedding,
      relationship: `${j.name} using ${j.toSource.name}${fmt(j.toSource.fromColumns)} and ${j.toTarget.name}${fmt(j.toTarget.fromColumns)}`,
    };
  }
  return {
    cardinality: r.toOne ? (r.fk.from === source ? 'many-to-one' : 'one-to-one') : 'one-to-many',
    embedding,
    relationship: `${r.fk.name} using ${r.fk.from}${fmt(r.fk.fromColumns)} and ${r.fk.to}${fmt(r.fk.toColumns)}`,
  };
}

/** Finds the one foreign-key relationship an embed means (PGRST200 none, PGRST201 several). */
export function resolveRelationship(
  cache: SchemaCache,
  source: string,
  relation: string,
  hint: string | null,
): Relationship {
  const target = cache.relations.get(relation);
  let found = target ? candidates(cache, source, target) : [];
  if (hint !== null) {
    found = found.filter((r) => matchesHint(r, hint));
  }
  if (found.length === 0) {
    const using = hint === null ? '' : ` using the hint '${hint}'`;
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${source}' and '${relation}' in the schema cache`,
      `Searched for a foreign key relationship between '${source}' and '${relation}'${using} in the schema '${cache.schema}', but no matches were found.`,
    );
  }
  if (found.length > 1) {
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${source}' and '${relation}'`,
      found.map((r) => describe(r, source, relation)),
      `Try changing '${relation}' to one of the following: ${found.map((r) => `'${relation}!${r.junction?.name ?? r.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  return found[0]!;
}
