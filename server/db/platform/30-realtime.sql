-- Platform bootstrap, part 3: change capture for Realtime's postgres_changes. Idempotent.
--
-- Hosted Realtime reads the WAL through a replication slot; PGlite has no logical replication, so the
-- embedded stack captures changes with a row trigger on every table in publication supabase_realtime.
-- The trigger stores the change in realtime.changes and notifies its id on channel vigil_realtime
-- (a notify payload is limited to ~8000 bytes, a row is not). The stack reads, delivers and deletes it.
create schema if not exists realtime;
-- The API roles may reach only realtime.messages and realtime.topic() here (Realtime Authorization, below):
-- every other object of the schema has its privileges revoked, since captured rows hold other users' data.
revoke all on schema realtime from public;
grant usage on schema realtime to anon, authenticated, service_role;

create table if not exists realtime.changes (
  id bigserial primary key,
  schema_name text not null,
  table_name text not null,
  type text not null,
  commit_timestamp timestamptz not null default now(),
  columns jsonb not null,
  record jsonb,
  -- As delivered: the primary key columns, or the whole row under replica identity full.
  old_record jsonb,
  -- The whole old row of a DELETE, only to evaluate RLS policies and filters; never delivered.
  old_full jsonb
);
revoke all on realtime.changes from public, anon, authenticated, service_role;

create or replace function realtime.capture_change() returns trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  cols jsonb;
  pk text[];
  full_identity boolean;
  old_row jsonb;
  change_id bigint;
begin
  select coalesce(jsonb_agg(jsonb_build_object('name', a.attname, 'type', t.typname) order by a.attnum), '[]'::jsonb)
    into cols
    from pg_attribute a join pg_type t on t.oid = a.atttypid
   where a.attrelid = tg_relid and a.attnum > 0 and not a.attisdropped;
  select coalesce(array_agg(a.attname::text), '{}') into pk
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
   where i.indrelid = tg_relid and i.indisprimary;
  select c.relreplident = 'f' into full_identity from pg_class c where c.oid = tg_relid;
  if tg_op <> 'INSERT' then
    old_row := to_jsonb(old);
  end if;
  insert into realtime.changes (schema_name, table_name, type, columns, record, old_record, old_full)
  values (
    tg_table_schema, tg_table_name, tg_op, cols,
    case when tg_op = 'DELETE' then null else to_jsonb(new) end,
    case when old_row is null then null
         when full_identity then old_row
         else (select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from jsonb_each(old_row) as e(k, v) where k = any(pk)) end,
    case when tg_op = 'DELETE' then old_row else null end
  ) returning id into change_id;
  perform pg_notify('vigil_realtime', change_id::text);
  return null;
end $$;

-- What the capture triggers depend on: each table listed in publication supabase_realtime (oid, name,
-- primary key columns, which its RLS checker uses) and each table that carries the trigger. Unchanged since
-- the last refresh, a refresh would change nothing, so the stack skips it at start. Null (always refresh)
-- for a publication FOR ALL TABLES or FOR TABLES IN SCHEMA, whose tables come and go without it changing.
-- It reads pg_publication_rel: the pg_publication_tables view costs ~20-90 ms on PGlite.
create table if not exists realtime.capture_state (
  id boolean primary key default true check (id),
  fingerprint text
);
revoke all on realtime.capture_state from public, anon, authenticated, service_role;

create or replace function realtime.capture_fingerprint() returns text
language sql stable set search_path = pg_catalog, pg_temp as $$
  select case
    when not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then md5('none')
    when exists (select 1 from pg_publication p where p.pubname = 'supabase_realtime' and p.puballtables)
      or exists (select 1 from pg_publication_namespace pn join pg_publication p on p.oid = pn.pnpubid
                  where p.pubname = 'supabase_realtime') then null
    else (
      select md5(coalesce(string_agg(item, ';' order by item), ''))
        from (
          select format('p:%s:%I.%I:%s', c.oid, n.nspname, c.relname,
                   (select string_agg(a.attname, ',' order by a.attnum)
                      from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                     where i.indrelid = c.oid and i.indisprimary)) as item
            from pg_publication_rel r
            join pg_publication p on p.oid = r.prpubid
            join pg_class c on c.oid = r.prrelid
            join pg_namespace n on n.oid = c.relnamespace
           where p.pubname = 'supabase_realtime' and n.nspname <> 'realtime'
          union all
          select format('t:%s', g.tgrelid) from pg_trigger g where g.tgname = 'vigil_realtime_capture'
        ) as parts)
  end
$$;
revoke all on function realtime.capture_fingerprint() from public;

-- Attaches the capture trigger to every table in publication supabase_realtime and removes it from
-- tables that left it. The stack calls this at start; the event trigger below calls it on changes.
create or replace function realtime.refresh_capture_triggers() returns void
language plpgsql set search_path = pg_catalog, pg_temp as $$
declare
  r record;
begin
  for r in
    select n.nspname as schema_name, c.relname as table_name
      from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where g.tgname = 'vigil_realtime_capture'
       and not exists (select 1 from pg_publication_tables p
                        where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname)
  loop
    execute format('drop trigger vigil_realtime_capture on %I.%I', r.schema_name, r.table_name);
  end loop;
  for r in
    select p.schemaname as schema_name, p.tablename as table_name
      from pg_publication_tables p
     where p.pubname = 'supabase_realtime' and p.schemaname <> 'realtime'
  loop
    execute format(
      'create or replace trigger vigil_realtime_capture after insert or update or delete on %I.%I '
      'for each row execute function realtime.capture_change()', r.schema_name, r.table_name);
    perform realtime.ensure_rls_checker(format('%I.%I', r.schema_name, r.table_name)::regclass);
  end loop;
  insert into realtime.capture_state (fingerprint) values (realtime.capture_fingerprint())
    on conflict (id) do update set fingerprint = excluded.fingerprint;
end $$;
revoke all on function realtime.refresh_capture_triggers() from public;


-- Keeps the triggers in step with ALTER PUBLICATION where event triggers are allowed (superuser);
-- elsewhere the stack's refresh at start-up and realtime.refresh_capture_triggers() do the job.
create or replace function realtime.on_publication_ddl() returns event_trigger
language plpgsql as $$
begin
  perform realtime.refresh_capture_triggers();
end $$;

do $$
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'vigil_realtime_publication') then
    create event trigger vigil_realtime_publication on ddl_command_end
      when tag in ('ALTER PUBLICATION', 'CREATE PUBLICATION')
      execute function realtime.on_publication_ddl();
  end if;
exception when insufficient_privilege then
  raise notice 'realtime: no event trigger (not superuser); triggers refresh at stack start';
end $$;

-- The row check of one table as a function with static SQL, so Postgres caches its plan: row-level
-- security checks for 100 subscribers then cost ~10 ms instead of ~30 ms of dynamic SQL. For each JWT
-- claims in p_claims it selects the live row by primary key as that role with request.jwt.claims set
-- (as Realtime's apply_rls does) and answers whether the row came back. Tables without a primary key get
-- no checker (their changes are checked by policy evaluation in realtime.visible_columns).
create or replace function realtime.rls_checker_name(rel regclass) returns text
language sql immutable as $$ select 'rls_' || md5(rel::text) $$;

create or replace function realtime.ensure_rls_checker(rel regclass) returns boolean
language plpgsql set search_path = pg_catalog, pg_temp as $$
declare
  pk_match text;
begin
  select string_agg(format('t.%1$I = r.%1$I', a.attname), ' and ') into pk_match
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
   where i.indrelid = rel and i.indisprimary;
  if pk_match is null then
    return false;
  end if;
  execute format($f$
    create or replace function realtime.%I(p_row jsonb, p_claims jsonb) returns boolean[]
    language plpgsql set search_path = pg_catalog, pg_temp as $body$
    declare
      r %s;
      claims jsonb;
      seen boolean;
      answers boolean[] := '{}';
    begin
      r := jsonb_populate_record(null::%s, p_row);
      -- The row changed again or was deleted before delivery: the caller checks the captured row instead.
      if not exists(select 1 from %s as t where %s) then
        return null;
      end if;
      for claims in select value from jsonb_array_elements(p_claims) loop
        begin
          perform set_config('role', claims->>'role', true);
          perform set_config('request.jwt.claims', claims::text, true);
          select exists(select 1 from %s as t where %s) into seen;
          perform set_config('role', 'none', true);
        exception when others then
          -- A policy that errors for this subscriber hides the row from it, never from the others.
          seen := false;
        end;
        answers := answers || seen;
      end loop;
      return answers;
    end $body$;
    revoke all on function realtime.%I(jsonb, jsonb) from public;
  $f$, realtime.rls_checker_name(rel), rel, rel, rel, pk_match, rel, pk_match, realtime.rls_checker_name(rel));
  return true;
end $$;
revoke all on function realtime.ensure_rls_checker(regclass) from public;

-- Whether the role's SELECT policies let the subscriber (role + claims) see a captured row: for a DELETE
-- (the row is gone) and for a row deleted before its change was delivered. Runs as the subscriber.
create or replace function realtime.policies_allow(rel regclass, p_table text, role_name text, claims jsonb, p_row jsonb)
returns boolean
language plpgsql set search_path = pg_catalog, pg_temp as $$
declare
  permissive text;
  restrictive text;
  visible boolean := false;
begin
  select string_agg('(' || coalesce(pg_get_expr(pol.polqual, pol.polrelid), 'false') || ')', ' or ') filter (where pol.polpermissive),
         string_agg('(' || coalesce(pg_get_expr(pol.polqual, pol.polrelid), 'false') || ')', ' and ') filter (where not pol.polpermissive)
    into permissive, restrictive
    from pg_policy pol
   where pol.polrelid = rel and pol.polcmd in ('r', '*')
     and (pol.polroles = '{0}' or exists (select 1 from pg_roles ro where ro.oid = any(pol.polroles) and ro.rolname = role_name));
  if permissive is null then
    return false;
  end if;
  begin
    perform set_config('role', role_name, true);
    perform set_config('request.jwt.claims', claims::text, true);
    execute format('select exists(select 1 from jsonb_populate_record(null::%s, $1) as %I where (%s) and (%s))',
                   rel, p_table, permissive, coalesce(restrictive, 'true'))
      into visible using p_row;
    perform set_config('role', 'none', true);
  exception when others then
    -- A policy that errors for this subscriber hides the row from it, never from the others.
    visible := false;
  end;
  return coalesce(visible, false);
end $$;
revoke all on function realtime.policies_allow(regclass, text, text, jsonb, jsonb) from public;

-- Which subscribers may see one change: p_claims is a JSON array of JWT claims (each with `role`); the
-- result has one element per claims, null when that subscriber may not see the row, else the names of
-- the columns its role may select (Realtime sends only those). Row-level security decides, as the
-- subscriber's role with its claims: INSERT/UPDATE through the table's checker (the live row by primary
-- key); a DELETE (the row is gone) or a table without a primary key by evaluating the role's SELECT
-- policies on the captured row.
create or replace function realtime.visible_columns(p_schema text, p_table text, p_type text, p_row jsonb, p_claims jsonb)
returns jsonb
language plpgsql set search_path = pg_catalog, pg_temp as $$
declare
  rel regclass := format('%I.%I', p_schema, p_table)::regclass;
  rls boolean;
  use_checker boolean := false;
  claims jsonb;
  role_name text;
  bypass boolean;
  cols jsonb;
  -- Per role, computed once per call: the selectable columns ([] without SELECT on the table).
  role_info jsonb := '{}'::jsonb;
  -- Per subscriber: true/false when decided here, null when the row checker must decide.
  decided boolean[] := '{}';
  pending jsonb := '[]'::jsonb;
  checked boolean[];
  next_checked int := 1;
  visible boolean;
  result jsonb := '[]'::jsonb;
  i int := 0;
begin
  select c.relrowsecurity into rls from pg_class c where c.oid = rel;
  if p_type <> 'DELETE' and rls then
    use_checker := to_regproc('realtime.' || realtime.rls_checker_name(rel)) is not null
                   or realtime.ensure_rls_checker(rel);
  end if;
  for claims in select value from jsonb_array_elements(p_claims) loop
    role_name := claims->>'role';
    if not role_info ? role_name then
      select coalesce(jsonb_agg(a.attname order by a.attnum), '[]'::jsonb) into cols
        from pg_attribute a
       where has_table_privilege(role_name, rel, 'SELECT')
         and a.attrelid = rel and a.attnum > 0 and not a.attisdropped
         and has_column_privilege(role_name, rel, a.attnum, 'SELECT');
      select coalesce(bool_or(r.rolbypassrls), false) into bypass from pg_roles r where r.rolname = role_name;
      role_info := role_info || jsonb_build_object(role_name, jsonb_build_object('cols', cols, 'bypass', bypass));
    end if;
    bypass := (role_info -> role_name ->> 'bypass')::boolean;
    visible := null;
    if role_info -> role_name -> 'cols' = '[]'::jsonb then
      -- No SELECT privilege on the table: the subscriber sees nothing of it.
      visible := false;
    elsif bypass or not rls then
      visible := true;
    elsif use_checker then
      pending := pending || jsonb_build_array(claims);
    else
      visible := realtime.policies_allow(rel, p_table, role_name, claims, p_row);
    end if;
    decided := decided || visible;
  end loop;
  if jsonb_array_length(pending) > 0 then
    execute format('select realtime.%I($1, $2)', realtime.rls_checker_name(rel)) into checked using p_row, pending;
    if checked is null then
      checked := '{}';
      for claims in select value from jsonb_array_elements(pending) loop
        checked := checked || realtime.policies_allow(rel, p_table, claims->>'role', claims, p_row);
      end loop;
    end if;
  end if;
  for claims in select value from jsonb_array_elements(p_claims) loop
    i := i + 1;
    visible := decided[i];
    if visible is null then
      visible := coalesce(checked[next_checked], false);
      next_checked := next_checked + 1;
    end if;
    result := result || jsonb_build_array(case when visible then role_info -> (claims->>'role') -> 'cols' end);
  end loop;
  return result;
end $$;
revoke all on function realtime.visible_columns(text, text, text, jsonb, jsonb) from public;

-- Realtime Authorization, as Supabase Realtime defines it: a private channel's join, broadcasts and presence
-- are authorised by the joining JWT's RLS policies on realtime.messages (SELECT to receive, INSERT to send),
-- with realtime.topic() naming the channel. The stack writes rows here only inside rolled-back checks.
create table if not exists realtime.messages (
  id uuid primary key default gen_random_uuid(),
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now()
);
create index if not exists messages_topic_index on realtime.messages (topic);
alter table realtime.messages enable row level security;
revoke all on realtime.messages from public;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;

create or replace function realtime.topic() returns text
language sql stable as $$ select nullif(current_setting('realtime.topic', true), '')::text $$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

