-- The stack's mail outbox (like Supabase's local Inbucket/Mailpit): every e-mail the stack sends.
-- Not reachable through the REST API: the schema is not exposed and the API roles have no grants.
create schema if not exists vigil_platform;
create table if not exists vigil_platform.mail_outbox (
  id uuid primary key default gen_random_uuid(),
  "to" text not null,
  subject text not null,
  text text not null,
  html text not null,
  links text[] not null default '{}',
  created_at timestamptz not null default now()
);
create index if not exists mail_outbox_to_idx on vigil_platform.mail_outbox (lower("to"), created_at desc);
