import { RestError } from '../errors.ts';
import type { ForeignKey, Relation, SchemaCache } from '../schema-cache.ts';

/** How an embedded resource joins its parent: column pairs (parent column, child column). */
export interface Relationship {
  target: Relation;
  toOne: boolean;
  pairs: [string, string][];
  fk: ForeignKey;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

function candidates(cache: SchemaCache, source: string, target: Relation): Relationship[] {
  const found: Relationship[] = [];
  for (const fk of cache.fks) {
    if (fk.from === source && fk.to === target.name) {
      // Many-to-one: the parent holds the foreign key.
      found.push({ target, toOne: true, fk, pairs: fk.fromColumns.map((c, i) => [c, fk.toColumns[i]!]) });
    }
    if (fk.to === source && fk.from === target.name) {
      // One-to-many (one-to-one when the child's key columns are unique).
      const unique =
        target.uniques.some((u) => sameSet(u, fk.fromColumns)) || sameSet(target.pk, fk.fromColumns);
      found.push({ target, toOne: unique, fk, pairs: fk.toColumns.map((c, i) => [c, fk.fromColumns[i]!]) });
    }
  }
  return found;
}

const matchesHint = (r: Relationship, hint: string) =>
  r.fk.name === hint || (r.fk.fromColumns.length === 1 && r.fk.fromColumns[0] === hint);

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
      found.map((r) => ({
        cardinality: r.toOne ? (r.fk.from === source ? 'many-to-one' : 'one-to-one') : 'one-to-many',
        embedding: `${source} with ${relation}`,
        relationship: `${r.fk.name} using ${r.fk.from}(${r.fk.fromColumns.join(', ')}) and ${r.fk.to}(${r.fk.toColumns.join(', ')})`,
      })),
      `Try changing '${relation}' to one of the following: ${found.map((r) => `'${relation}!${r.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
    );
  }
  return found[0]!;
}
