-- Security data: agent status and metrics (written by the customer's app), tool configurations, scan
-- results, security events, ML insights and recommendations (written by the agents with the service role).
-- The scanning internals (job queue, targets, findings) come in a later migration; finding_id columns
-- below are left without a foreign key for it to add.

create table public.ai_agents_status (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  agent_type public.agent_type not null,
  is_active boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, agent_type)
);

create table public.monitoring_metrics (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  metric_name text not null check (char_length(metric_name) between 1 and 100),
  -- NaN and infinities would poison every aggregate over a customer's history.
  value double precision not null check (value > '-Infinity'::float8 and value < 'Infinity'::float8),
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  "timestamp" timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index monitoring_metrics_user_name_time_idx on public.monitoring_metrics (user_id, metric_name, "timestamp" desc);

create table public.security_tool_configurations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  tool_type public.security_tool_type not null,
  enabled boolean not null default false,
  connection_status public.connection_status not null default 'disconnected',
  settings jsonb not null default '{}'::jsonb check (jsonb_typeof(settings) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, tool_type)
);

create table public.scan_results (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  scan_type public.security_tool_type not null,
  status public.scan_status not null default 'queued',
  severity_level public.scan_severity not null default 'none',
  target text check (char_length(target) between 1 and 2048),
  start_time timestamptz,
  end_time timestamptz,
  progress jsonb not null default '{}'::jsonb check (jsonb_typeof(progress) = 'object'),
  analyzed_results jsonb,
  error_message text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (end_time is null or start_time is null or end_time >= start_time)
);
create index scan_results_user_type_created_idx on public.scan_results (user_id, scan_type, created_at desc);
create index scan_results_user_start_idx on public.scan_results (user_id, start_time desc nulls last);
-- One running scan per customer and scan type: a second start while one runs is refused (23505).
create unique index scan_results_one_active_idx on public.scan_results (user_id, scan_type)
  where status in ('queued', 'in_progress');

create table public.security_events (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  event_type text not null check (char_length(event_type) between 1 and 100),
  description text not null,
  severity public.alert_severity not null,
  status public.event_status not null default 'open',
  scan_result_id uuid references public.scan_results (id) on delete set null,
  finding_id uuid,
  details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  resolved_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index security_events_user_created_idx on public.security_events (user_id, created_at desc);
create index security_events_user_open_idx on public.security_events (user_id, created_at desc) where status = 'open';
create index security_events_scan_result_id_idx on public.security_events (scan_result_id);

create table public.ml_insights (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 200),
  description text not null,
  insight_type public.insight_type not null,
  confidence_score double precision not null check (confidence_score >= 0 and confidence_score <= 1),
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index ml_insights_user_created_idx on public.ml_insights (user_id, created_at desc);

create table public.ai_security_recommendations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 200),
  description text not null,
  priority public.recommendation_priority not null,
  category text not null check (char_length(category) between 1 and 100),
  status public.recommendation_status not null default 'pending',
  steps jsonb not null default '[]'::jsonb check (jsonb_typeof(steps) = 'array'),
  finding_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index ai_security_recommendations_user_status_created_idx
  on public.ai_security_recommendations (user_id, status, created_at desc);

create trigger set_updated_at before update on public.ai_agents_status for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.monitoring_metrics for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.security_tool_configurations for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.scan_results for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.security_events for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.ml_insights for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.ai_security_recommendations for each row execute function public.set_updated_at();

alter table public.ai_agents_status enable row level security;
alter table public.monitoring_metrics enable row level security;
alter table public.security_tool_configurations enable row level security;
alter table public.scan_results enable row level security;
alter table public.security_events enable row level security;
alter table public.ml_insights enable row level security;
alter table public.ai_security_recommendations enable row level security;

revoke all on table public.ai_agents_status, public.monitoring_metrics, public.security_tool_configurations,
  public.scan_results, public.security_events, public.ml_insights, public.ai_security_recommendations
  from anon, authenticated;

-- Agent status: the dashboard creates the missing rows and toggles them.
grant select, insert, update on table public.ai_agents_status to authenticated;
create policy "ai_agents_status: owner reads" on public.ai_agents_status
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "ai_agents_status: owner inserts" on public.ai_agents_status
  for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "ai_agents_status: owner updates" on public.ai_agents_status
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);

-- Metrics: the app appends its own batches; history is never rewritten by a client.
grant select, insert on table public.monitoring_metrics to authenticated;
create policy "monitoring_metrics: owner reads" on public.monitoring_metrics
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "monitoring_metrics: owner inserts" on public.monitoring_metrics
  for insert to authenticated with check ((select auth.uid()) = user_id);

-- Agent output: the customer reads its own; only the service role writes.
grant select on table public.security_tool_configurations, public.scan_results, public.security_events,
  public.ml_insights, public.ai_security_recommendations to authenticated;
create policy "security_tool_configurations: owner reads" on public.security_tool_configurations
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "scan_results: owner reads" on public.scan_results
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "security_events: owner reads" on public.security_events
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "ml_insights: owner reads" on public.ml_insights
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "ai_security_recommendations: owner reads" on public.ai_security_recommendations
  for select to authenticated using ((select auth.uid()) = user_id);
