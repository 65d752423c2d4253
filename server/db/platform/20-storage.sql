-- Platform bootstrap, part 3: the storage schema as Supabase Storage keeps it (buckets, objects and the
-- path helpers that policies call), plus one table of our own for the object bytes, so that an
-- in-memory stack needs no file system. Row-level security is on and there are no policies: the
-- project's migrations grant access (e.g. "a customer reads objects under their own user-id folder").
-- Idempotent.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  owner_id text,
  public boolean not null default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets(id),
  name text,
  owner uuid,
  owner_id text,
  metadata jsonb,
  user_metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_accessed_at timestamptz not null default now(),
  constraint objects_bucket_id_name_key unique (bucket_id, name)
);
create index if not exists objects_bucket_name_prefix on storage.objects (bucket_id, name text_pattern_ops);

-- The bytes of each object. Only the storage service reads and writes it (after row-level security on
-- storage.objects has allowed the request), so the API roles get no privileges on it.
create table if not exists storage.object_data (
  object_id uuid primary key references storage.objects(id) on delete cascade,
  data bytea not null
);
revoke all on storage.object_data from anon, authenticated, service_role;

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
-- Supabase's grants: every API role may try; the policies decide (service_role bypasses them).
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

-- 'a/b/c.pdf' -> {a,b}
create or replace function storage.foldername(name text) returns text[] language sql immutable as $$
  select (string_to_array(name, '/'))[1:greatest(array_length(string_to_array(name, '/'), 1) - 1, 0)]
$$;
-- 'a/b/c.pdf' -> 'c.pdf'
create or replace function storage.filename(name text) returns text language sql immutable as $$
  select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
$$;
-- 'a/b/c.pdf' -> 'pdf'
create or replace function storage.extension(name text) returns text language sql immutable as $$
  select case when storage.filename(name) like '%.%'
    then reverse(split_part(reverse(storage.filename(name)), '.', 1)) else '' end
$$;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;
