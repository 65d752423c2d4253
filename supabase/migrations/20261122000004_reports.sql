-- Reports: the customer's report configurations (schedules it edits) and the reports the agents generate
-- from them. next_run_at / last_run_at belong to the scheduler and are not writable by customers.

create table public.report_configurations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  description text check (char_length(description) <= 2000),
  report_type public.report_type not null default 'soc_compliance',
  schedule_type public.schedule_type not null default 'daily',
  is_enabled boolean not null default true,
  next_run_at timestamptz,
  last_run_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index report_configurations_user_created_idx on public.report_configurations (user_id, created_at desc);
-- The scheduler's scan: enabled configurations that are due.
create index report_configurations_due_idx on public.report_configurations (next_run_at) where is_enabled;

create table public.generated_reports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- A report outlives the configuration it came from.
  configuration_id uuid references public.report_configurations (id) on delete set null,
  report_type public.report_type not null,
  status public.report_status not null default 'generating',
  format public.report_format not null default 'pdf',
  generated_at timestamptz not null default now(),
  file_path text check (char_length(file_path) between 1 and 1024),
  failure_reason text,
  period_start timestamptz,
  period_end timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A completed report can be downloaded; a failed one says why.
  check (status <> 'completed' or file_path is not null),
  check (status <> 'failed' or failure_reason is not null),
  check (period_end is null or period_start is null or period_end >= period_start)
);
create index generated_reports_user_generated_idx on public.generated_reports (user_id, generated_at desc);
create index generated_reports_configuration_id_idx on public.generated_reports (configuration_id);

create trigger set_updated_at before update on public.report_configurations for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.generated_reports for each row execute function public.set_updated_at();

alter table public.report_configurations enable row level security;
alter table public.generated_reports enable row level security;

revoke all on table public.report_configurations, public.generated_reports from anon, authenticated;

grant select, delete on table public.report_configurations to authenticated;
grant insert (user_id, name, description, report_type, schedule_type, is_enabled) on table public.report_configurations to authenticated;
grant update (name, description, report_type, schedule_type, is_enabled) on table public.report_configurations to authenticated;
create policy "report_configurations: owner reads" on public.report_configurations
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "report_configurations: owner inserts" on public.report_configurations
  for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "report_configurations: owner updates" on public.report_configurations
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);
create policy "report_configurations: owner deletes" on public.report_configurations
  for delete to authenticated using ((select auth.uid()) = user_id);

grant select on table public.generated_reports to authenticated;
create policy "generated_reports: owner reads" on public.generated_reports
  for select to authenticated using ((select auth.uid()) = user_id);
