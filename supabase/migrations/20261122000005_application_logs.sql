-- Application logs, written by the application-logger edge function with the service role.
-- A customer may read the records about itself; nobody writes them through the API but that function.

create table public.application_logs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid default auth.uid() references auth.users (id) on delete cascade,
  level public.log_level not null,
  message text not null check (char_length(message) between 1 and 10000),
  context jsonb not null default '{}'::jsonb,
  "timestamp" timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index application_logs_timestamp_idx on public.application_logs ("timestamp" desc);
create index application_logs_user_timestamp_idx on public.application_logs (user_id, "timestamp" desc);
create index application_logs_errors_idx on public.application_logs ("timestamp" desc) where level = 'error';

create trigger set_updated_at before update on public.application_logs for each row execute function public.set_updated_at();

alter table public.application_logs enable row level security;

revoke all on table public.application_logs from anon, authenticated;
grant select on table public.application_logs to authenticated;
create policy "application_logs: owner reads" on public.application_logs
  for select to authenticated using ((select auth.uid()) = user_id);
