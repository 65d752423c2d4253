import type { Relation } from '../introspection.ts';
import { ident, qualified, type Params } from '../sql.ts';

export interface InsertOptions {
  rel: Relation;
  schema: string;
  columns: string[];
  /** JSON array of the rows, or with `single` the one row's JSON object. */
  payload: string;
  /** One object, not an array (supabase-js's insert of one row): no array to unnest and order. */
  single: boolean;
  missingDefault: boolean;
  conflict: { columns: string[]; merge: boolean } | null;
  returning: boolean;
  /** Conditions on each row as typed (alias `pgrst_p`): PUT's primary key from the URL. */
  rowFilter?: string[];
}

/**
 * missing=default as PostgREST 12/13 applies it (SqlFragment fromJsonBodyF): each element of the body is
 * merged over an object of the written columns' defaults, evaluated once per element whether or not the
 * element gives the column, so a serial or identity column consumes the same sequence values as there.
 */
function defaultsObject(o: InsertOptions, params: Params): string | null {
  const pairs: string[] = [];
  for (const column of o.columns) {
    const col = o.rel.columnMap.get(column)!;
    // The DEFAULT expression comes from pg_catalog (pg_get_expr), never from the request.
    const expr =
      col.default ??
      (col.identity
        ? `nextval(pg_get_serial_sequence(${params.add(qualified(o.schema, o.rel.name))}, ${params.add(column)}))`
        : null);
    if (expr !== null) {
      pairs.push(`${params.add(column)}::text, ${expr}`);
    }
  }
  return pairs.length > 0 ? `jsonb_build_object(${pairs.join(', ')})` : null;
}

/** INSERT (or upsert) from a JSON array, typed by json(b)_populate_record against the table's row type. */
export function insertSql(o: InsertOptions, params: Params): string {
  const table = qualified(o.schema, o.rel.name);
  const alias = ident(o.rel.name);
  if (o.columns.length === 0) {
    // One row of defaults per element, as PostgREST's column-less INSERT … SELECT: none for `[]`.
    const rows = o.single
      ? 'default values'
      : `select from jsonb_array_elements(${params.add(o.payload)}::jsonb)`;
    return `insert into ${table} as ${alias} ${rows}${o.returning ? ` returning ${alias}.*, true as pgrst_inserted` : ''}`;
  }
  const payload = params.add(o.payload);
  const values = o.columns.map((c) => `pgrst_p.${ident(c)}`);
  const defaults = o.missingDefault ? defaultsObject(o, params) : null;
  const element = defaults === null ? 'pgrst_e.j' : `${defaults} || pgrst_e.j`;
  let sql =
    `insert into ${table} as ${alias} (${o.columns.map(ident).join(', ')}) select ${values.join(', ')} ` +
    (o.single
      ? `from (select ${payload}::jsonb as j) as pgrst_e `
      : `from jsonb_array_elements(${payload}::jsonb) with ordinality as pgrst_e(j, n) `) +
    `cross join lateral jsonb_populate_record(null::${table}, ${element}) as pgrst_p` +
    (o.rowFilter?.length ? ` where ${o.rowFilter.join(' and ')}` : '') +
    (o.single ? '' : ' order by pgrst_e.n');
  if (o.conflict) {
    const target = `(${o.conflict.columns.map(ident).join(', ')})`;
    const set = o.columns.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ');
    sql +=
      o.conflict.merge && set
        ? ` on conflict ${target} do update set ${set}`
        : ` on conflict ${target} do nothing`;
  }
  if (o.returning) {
    sql += ` returning ${alias}.*, (${alias}.xmax::text = '0') as pgrst_inserted`;
  }
  return sql;
}

export function updateSql(
  rel: Relation,
  schema: string,
  columns: string[],
  payload: string,
  where: string[],
  returning: boolean,
  params: Params,
): string {
  const table = qualified(schema, rel.name);
  const alias = ident(rel.name);
  const p = params.add(payload);
  const set = columns.map((c) => `${ident(c)} = pgrst_p.${ident(c)}`).join(', ');
  const cond = where.length > 0 ? ` where ${where.join(' and ')}` : '';
  return (
    `update ${table} as ${alias} set ${set} from jsonb_populate_record(null::${table}, ${p}::jsonb) as pgrst_p${cond}` +
    (returning ? ` returning ${alias}.*` : '')
  );
}

export function deleteSql(rel: Relation, schema: string, where: string[], returning: boolean): string {
  const alias = ident(rel.name);
  const cond = where.length > 0 ? ` where ${where.join(' and ')}` : '';
  return `delete from ${qualified(schema, rel.name)} as ${alias}${cond}${returning ? ` returning ${alias}.*` : ''}`;
}
