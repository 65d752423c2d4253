-- Platform bootstrap, part 1: what every Supabase project has before its first migration.
-- Idempotent: re-applied whenever this file changes.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_admin') then create role supabase_admin nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then create role supabase_auth_admin nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_storage_admin') then create role supabase_storage_admin nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then create role authenticator nologin noinherit; end if;
end $$;

grant anon, authenticated, service_role to authenticator;

create schema if not exists extensions;
-- Extensions are not loaded: each costs PGlite start-up time, and core Postgres has gen_random_uuid().

grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
-- Supabase grants every API role access to new objects in public; row-level security does the rest,
-- so every table a migration creates must enable it.
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;

do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end $$;

-- Statement time limits per API role, as Supabase sets them; the REST layer applies them to each request
-- made as the role (server/db/role-timeouts.ts). A project changes them the same way:
--   alter role authenticated set statement_timeout = '15s';  notify pgrst, 'reload config';
do $$
begin
  if not exists (select 1 from pg_db_role_setting d join pg_roles r on r.oid = d.setrole
                  where r.rolname = 'anon' and d.setconfig::text like '%statement_timeout=%') then
    alter role anon set statement_timeout = '3s';
  end if;
  if not exists (select 1 from pg_db_role_setting d join pg_roles r on r.oid = d.setrole
                  where r.rolname = 'authenticated' and d.setconfig::text like '%statement_timeout=%') then
    alter role authenticated set statement_timeout = '8s';
  end if;
end $$;
