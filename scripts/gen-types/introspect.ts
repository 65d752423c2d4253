// Reads what the type generator needs from the system catalogues: the same facts postgres-meta collects
// for `supabase gen types` (tables, columns, foreign keys, enums, RPC functions), sorted as it sorts them.
import type { Queryable } from '../../server/db/database.ts';

export interface Column {
  name: string;
  /** pg_type.typname: int4, text, _text, an enum's name … */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  identity: boolean;
  identityAlways: boolean;
  generated: boolean;
}

export interface Relation {
  name: string;
  columns: string[];
  oneToOne: boolean;
  referencedRelation: string;
  referencedColumns: string[];
}

export interface Schema {
  tables: { name: string; columns: Column[]; relationships: Relation[] }[];
  views: { name: string; columns: Column[] }[];
  enums: { name: string; values: string[] }[];
  functions: {
    name: string;
    args: { name: string; type: string; hasDefault: boolean }[];
    tableColumns: { name: string; type: string }[];
    returnType: string;
    setof: boolean;
  }[];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

async function columnsOf(db: Queryable, schema: string, kinds: string[]) {
  const { rows } = await db.query<Column & { relation: string }>(
    `select c.relname as relation, a.attname as name, t.typname as type, not a.attnotnull as nullable,
            a.atthasdef as "hasDefault", a.attidentity <> '' as identity, a.attidentity = 'a' as "identityAlways",
            a.attgenerated <> '' as generated
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_type t on t.oid = a.atttypid
      where n.nspname = $1 and c.relkind = any($2::text[]) and a.attnum > 0 and not a.attisdropped`,
    [schema, `{${kinds.join(',')}}`],
  );
  const grouped = new Map<string, Column[]>();
  for (const { relation, ...col } of rows) {
    grouped.set(relation, [...(grouped.get(relation) ?? []), col]);
  }
  return [...grouped].map(([name, columns]) => ({ name, columns: columns.sort(byName) })).sort(byName);
}

async function relationshipsOf(db: Queryable, schema: string): Promise<Map<string, Relation[]>> {
  const { rows } = await db.query<Relation & { relation: string }>(
    `select src.relname as relation, con.conname as name, dst.relname as "referencedRelation",
            array(select attname::text from unnest(con.conkey) with ordinality k(num, i)
                    join pg_attribute on attrelid = con.conrelid and attnum = k.num order by k.i) as columns,
            array(select attname::text from unnest(con.confkey) with ordinality k(num, i)
                    join pg_attribute on attrelid = con.confrelid and attnum = k.num order by k.i) as "referencedColumns",
            exists (select 1 from pg_index ix
                      cross join lateral (select array_agg(k) as keys from unnest(ix.indkey::int2[]) with ordinality u(k, i)
                                           where i <= ix.indnkeyatts) uk
                     where ix.indrelid = con.conrelid and ix.indisunique
                       and uk.keys @> con.conkey and con.conkey @> uk.keys) as "oneToOne"
       from pg_constraint con
       join pg_class src on src.oid = con.conrelid
       join pg_namespace sn on sn.oid = src.relnamespace
       join pg_class dst on dst.oid = con.confrelid
       join pg_namespace dn on dn.oid = dst.relnamespace
      where con.contype = 'f' and sn.nspname = $1 and dn.nspname = $1`,
    [schema],
  );
  const out = new Map<string, Relation[]>();
  for (const { relation, ...rel } of rows) {
    out.set(relation, [...(out.get(relation) ?? []), rel]);
  }
  for (const rels of out.values()) {
    rels.sort(
      (a, b) => a.name.localeCompare(b.name) || a.referencedRelation.localeCompare(b.referencedRelation),
    );
  }
  return out;
}

async function enumsOf(db: Queryable, schema: string): Promise<Schema['enums']> {
  const { rows } = await db.query<{ name: string; values: string[] }>(
    `select t.typname as name, array(select enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder) as values
       from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = $1 and t.typtype = 'e'`,
    [schema],
  );
  return rows.sort(byName);
}

async function functionsOf(db: Queryable, schema: string): Promise<Schema['functions']> {
  const { rows } = await db.query<{
    name: string;
    names: string[] | null;
    modes: string[] | null;
    types: string[];
    defaults: number;
    returnType: string;
    setof: boolean;
  }>(
    `select p.proname as name, p.proargnames as names, p.proargmodes::text[] as modes, p.pronargdefaults as defaults,
            array(select t.typname::text from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(oid, i)
                    join pg_type t on t.oid = a.oid order by a.i) as types,
            rt.typname as "returnType", p.proretset as setof
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type rt on rt.oid = p.prorettype
      where n.nspname = $1 and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')`,
    [schema],
  );
  return rows
    .map((f) => {
      const all = f.types.map((type, i) => ({ name: f.names?.[i] ?? '', type, mode: f.modes?.[i] ?? 'i' }));
      const inputs = all.filter((a) => ['i', 'b', 'v'].includes(a.mode));
      return {
        name: f.name,
        args: inputs
          .map((a, i) => ({ name: a.name, type: a.type, hasDefault: i >= inputs.length - f.defaults }))
          .sort(byName),
        tableColumns: all.filter((a) => a.mode === 't').map(({ name, type }) => ({ name, type })),
        returnType: f.returnType,
        setof: f.setof,
      };
    })
    .sort((a, b) => byName(a, b) || JSON.stringify(a.args).localeCompare(JSON.stringify(b.args)));
}

export async function introspect(db: Queryable, schema: string): Promise<Schema> {
  const rels = await relationshipsOf(db, schema);
  const tables = (await columnsOf(db, schema, ['r', 'p', 'f'])).map((t) => ({
    ...t,
    relationships: rels.get(t.name) ?? [],
  }));
  return {
    tables,
    views: await columnsOf(db, schema, ['v', 'm']),
    enums: await enumsOf(db, schema),
    functions: await functionsOf(db, schema),
  };
}
