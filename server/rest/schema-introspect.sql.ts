/**
 * One round trip that reads everything the REST layer needs about the exposed schema, as one JSON value.
 * `cols` and `uniques` are MATERIALIZED: inlined, the planner re-ran the unique-key aggregate once per
 * relation in a nested loop (~700 ms on PGlite at start-up instead of ~100 ms).
 */
export const INTROSPECT_SQL = `
with rels as (
  select c.oid, c.relname, c.relkind from pg_catalog.pg_class c
  where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'v', 'm', 'f', 'p')
), cols as materialized (
  select a.attrelid, json_agg(json_build_object(
    'name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
    'nullable', not a.attnotnull, 'default', pg_catalog.pg_get_expr(d.adbin, d.adrelid),
    'identity', a.attidentity <> '', 'generated', a.attgenerated <> '') order by a.attnum) as columns
  from pg_catalog.pg_attribute a
  left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  where a.attnum > 0 and not a.attisdropped
    and (a.attrelid in (select oid from rels) or a.attrelid in (
      select t.typrelid from pg_catalog.pg_proc p join pg_catalog.pg_type t on t.oid = p.prorettype
      where p.pronamespace = $1::regnamespace and t.typrelid <> 0))
  group by a.attrelid
), uniques as materialized (
  select i.indrelid, json_agg((select json_agg(a.attname order by k.o) from unnest(i.indkey) with ordinality k(n, o)
    join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n)) as sets,
    (select json_agg(a.attname order by k.o) from pg_catalog.pg_index p cross join lateral unnest(p.indkey) with ordinality k(n, o)
      join pg_catalog.pg_attribute a on a.attrelid = p.indrelid and a.attnum = k.n
      where p.indrelid = i.indrelid and p.indisprimary) as pk
  from pg_catalog.pg_index i where i.indisunique and i.indpred is null and i.indrelid in (select oid from rels)
  group by i.indrelid
), fks as (
  select json_agg(json_build_object('name', con.conname, 'from', c1.relname, 'to', c2.relname,
    'fromColumns', (select json_agg(a.attname order by k.o) from unnest(con.conkey) with ordinality k(n, o)
      join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n),
    'toColumns', (select json_agg(a.attname order by k.o) from unnest(con.confkey) with ordinality k(n, o)
      join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n),
    -- One-to-one when the key columns are exactly a primary key or unique constraint of the table (as
    -- PostgREST decides it: constraints, not bare unique indexes).
    'oneToOne', exists (select 1 from pg_catalog.pg_constraint u where u.conrelid = con.conrelid
      and u.contype in ('p', 'u') and (select array_agg(x order by x) from unnest(u.conkey) x) =
        (select array_agg(x order by x) from unnest(con.conkey) x))
    ) order by con.conrelid, con.conname) as list
  from pg_catalog.pg_constraint con
  join pg_catalog.pg_class c1 on c1.oid = con.conrelid
  join pg_catalog.pg_class c2 on c2.oid = con.confrelid
  where con.contype = 'f' and con.conparentid = 0
    and c1.relnamespace = $1::regnamespace and c2.relnamespace = $1::regnamespace
), fns as (
  select json_agg(json_build_object('name', p.proname, 'volatility', p.provolatile, 'returnsSet', p.proretset,
    'returnType', pg_catalog.format_type(p.prorettype, null), 'returnTypeKind', t.typtype,
    'returnColumns', (select columns from cols where cols.attrelid = t.typrelid),
    'defaults', p.pronargdefaults, 'rows', p.prorows,
    -- A computed relationship: one argument of a relation's row type, returning rows of a relation.
    'argRelation', (select c.relname from pg_catalog.pg_class c where p.pronargs = 1 and c.reltype = p.proargtypes[0]
      and c.relnamespace = $1::regnamespace and c.relkind in ('r', 'v', 'm', 'f', 'p')),
    'returnRelation', (select c.relname from pg_catalog.pg_class c where c.reltype = p.prorettype
      and c.relnamespace = $1::regnamespace and c.relkind in ('r', 'v', 'm', 'f', 'p')),
    'args', (select coalesce(json_agg(json_build_object('name', coalesce(p.proargnames[x.o], ''),
        'type', pg_catalog.format_type(x.t, null), 'mode', coalesce(p.proargmodes[x.o], 'i')) order by x.o), '[]')
      from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality x(t, o)))) as list
  from pg_catalog.pg_proc p join pg_catalog.pg_type t on t.oid = p.prorettype
  where p.pronamespace = $1::regnamespace and p.prokind = 'f'
)
select json_build_object(
  'relations', (select coalesce(json_agg(json_build_object('name', r.relname, 'kind', r.relkind,
    'columns', coalesce(c.columns, '[]'), 'pk', coalesce(u.pk, '[]'), 'uniques', coalesce(u.sets, '[]'))), '[]')
    from rels r left join cols c on c.attrelid = r.oid left join uniques u on u.indrelid = r.oid),
  'fks', coalesce((select list from fks), '[]'),
  'functions', coalesce((select list from fns), '[]'),
  'types', (select json_agg(distinct t.typname) from pg_catalog.pg_type t
    where t.typnamespace in ('pg_catalog'::regnamespace, $1::regnamespace) and t.typtype in ('b', 'd', 'e', 'r', 'm')
      and t.typname !~ '^_' and t.typisdefined)
)::text as cache`;

/**
 * The introspection of each exposed schema that exists, in one statement (one snapshot): schema → JSON.
 * A schema named in the settings but absent from the database exposes nothing, as in PostgREST.
 */
export const INTROSPECT_ALL_SQL = `select pgrst_schemas.s as schema, i.cache
  from unnest(array(select nspname::text from pg_catalog.pg_namespace where nspname = any($1::text[]))) as pgrst_schemas(s)
  cross join lateral (${INTROSPECT_SQL.replaceAll('$1', 'pgrst_schemas.s')}) as i`;
