-- Vigil core schema: shared helpers, the enumerations every later migration uses, the public catalogue
-- (pricing plans, agent roles) and each customer's profile, settings and second-factor marker.
--
-- Conventions for every table in public (Supabase grants the API roles all privileges on new tables):
--   * row-level security is enabled in the same migration that creates the table;
--   * tenant rows carry user_id (default auth.uid(), FK to auth.users, on delete cascade);
--   * grants are narrowed to what the product needs, so a missing policy is never the only guard;
--   * policies call (select auth.uid()) so Postgres evaluates it once per statement, not per row.

-- updated_at is the server's clock, whatever a client sends.
create or replace function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function public.set_updated_at() from public, anon, authenticated;

create type public.industry_type as enum (
  'technology', 'healthcare', 'financial_services', 'manufacturing', 'retail', 'education', 'government', 'other'
);
create type public.subscription_status as enum ('trialing', 'active', 'past_due', 'canceled', 'incomplete', 'unpaid');
create type public.plan_tier as enum ('starter', 'professional', 'enterprise');
create type public.agent_role_type as enum (
  'cybersecurity_analyst', 'penetration_tester', 'incident_response', 'forensics_investigator',
  'threat_intelligence', 'application_security', 'cloud_security'
);
create type public.agent_type as enum (
  'penetration_tester', 'vulnerability_scanner', 'threat_detector', 'compliance_auditor',
  'network_monitor', 'soc_analyzer', 'forensics_investigator'
);
create type public.alert_severity as enum ('critical', 'high', 'medium', 'low');
create type public.event_status as enum ('open', 'investigating', 'resolved', 'dismissed');
create type public.scan_severity as enum ('critical', 'high', 'medium', 'low', 'info', 'none');
create type public.scan_status as enum ('queued', 'in_progress', 'completed', 'failed', 'stopped');
create type public.security_tool_type as enum ('webapp', 'infrastructure', 'api', 'cloud_security', 'threat_intel', 'siem');
create type public.connection_status as enum ('disconnected', 'connected', 'error');
create type public.insight_type as enum ('anomaly', 'trend', 'pattern', 'prediction');
create type public.recommendation_priority as enum ('high', 'medium', 'low');
create type public.recommendation_status as enum ('pending', 'in_progress', 'completed', 'dismissed');
create type public.report_type as enum ('soc_compliance', 'penetration_test', 'security_assessment', 'vulnerability_scan');
create type public.schedule_type as enum ('one_time', 'daily', 'weekly', 'monthly');
create type public.report_status as enum ('generating', 'completed', 'failed');
create type public.report_format as enum ('pdf', 'html', 'csv', 'json');
create type public.two_factor_method as enum ('biometric', 'totp');
create type public.log_level as enum ('info', 'warning', 'error');

-- ---------------------------------------------------------------------------------------------------
-- Catalogue: readable by everyone, written only by the service role (and the seed).

create table public.pricing_plans (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(name) between 1 and 100),
  tier public.plan_tier not null unique,
  description text,
  price_monthly integer not null check (price_monthly >= 0),
  price_yearly integer not null check (price_yearly >= 0),
  features jsonb not null default '[]'::jsonb check (jsonb_typeof(features) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on column public.pricing_plans.price_monthly is 'USD cents';
comment on column public.pricing_plans.price_yearly is 'USD cents';
create index pricing_plans_price_monthly_idx on public.pricing_plans (price_monthly);

create table public.agent_roles (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(name) between 1 and 100),
  description text not null,
  role_type public.agent_role_type not null unique,
  price_monthly integer not null check (price_monthly >= 0),
  features text[] not null default '{}',
  display_order smallint not null default 0,
  provider_price_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on column public.agent_roles.price_monthly is 'USD cents';
comment on column public.agent_roles.provider_price_id is 'the card-payment provider''s recurring price, when one is configured';

-- ---------------------------------------------------------------------------------------------------
-- Per-customer rows created at sign-up.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (char_length(full_name) <= 200),
  company_name text check (char_length(company_name) <= 200),
  industry_type public.industry_type,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.user_settings (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique default auth.uid() references auth.users (id) on delete cascade,
  email_notifications boolean not null default true,
  realtime_alerts boolean not null default true,
  automatic_remediation boolean not null default false,
  webhook_notifications boolean not null default false,
  -- Webhooks carry alert details: only to an https URL, no spaces or control characters.
  webhook_url text check (webhook_url ~ '^https://[^[:space:][:cntrl:]/?#]+(/[^[:space:][:cntrl:]]*)?$'
    and char_length(webhook_url) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.two_factor_auth (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique default auth.uid() references auth.users (id) on delete cascade,
  is_enabled boolean not null default false,
  method public.two_factor_method not null default 'biometric',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger set_updated_at before update on public.pricing_plans for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.agent_roles for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.profiles for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.user_settings for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.two_factor_auth for each row execute function public.set_updated_at();

alter table public.pricing_plans enable row level security;
alter table public.agent_roles enable row level security;
alter table public.profiles enable row level security;
alter table public.user_settings enable row level security;
alter table public.two_factor_auth enable row level security;

-- The catalogue: select only, for visitors and customers alike.
revoke all on table public.pricing_plans, public.agent_roles from anon, authenticated;
grant select on table public.pricing_plans, public.agent_roles to anon, authenticated;
create policy "pricing_plans: everyone reads the catalogue" on public.pricing_plans
  for select to anon, authenticated using (true);
create policy "agent_roles: everyone reads the catalogue" on public.agent_roles
  for select to anon, authenticated using (true);

-- Profiles: created by the sign-up trigger; a customer reads and edits its own, never its id.
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (full_name, company_name, industry_type) on table public.profiles to authenticated;
create policy "profiles: owner reads" on public.profiles
  for select to authenticated using ((select auth.uid()) = id);
create policy "profiles: owner updates" on public.profiles
  for update to authenticated using ((select auth.uid()) = id) with check ((select auth.uid()) = id);

-- Settings and the second-factor marker: the customer upserts its own row.
revoke all on table public.user_settings, public.two_factor_auth from anon, authenticated;
grant select, insert, update on table public.user_settings, public.two_factor_auth to authenticated;
create policy "user_settings: owner reads" on public.user_settings
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "user_settings: owner inserts" on public.user_settings
  for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "user_settings: owner updates" on public.user_settings
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);
create policy "two_factor_auth: owner reads" on public.two_factor_auth
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "two_factor_auth: owner inserts" on public.two_factor_auth
  for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "two_factor_auth: owner updates" on public.two_factor_auth
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);

-- ---------------------------------------------------------------------------------------------------
-- Sign-up: one profile (from the sign-up metadata) and one settings row per new user.
-- Runs as the migration owner (auth's own role may not write public); search_path is empty so no object
-- a user could create shadows the ones named here.
create or replace function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  -- 'Financial Services' (the sign-up form's label) and 'financial_services' both name one industry.
  industry text := regexp_replace(lower(btrim(coalesce(meta ->> 'industry_type', ''))), '[^a-z]+', '_', 'g');
begin
  insert into public.profiles (id, full_name, company_name, industry_type)
  values (
    new.id,
    left(nullif(btrim(meta ->> 'full_name'), ''), 200),
    left(nullif(btrim(meta ->> 'company_name'), ''), 200),
    -- An unknown industry must not make sign-up fail: it is stored as not given.
    case when industry = any (enum_range(null::public.industry_type)::text[]) then industry::public.industry_type end
  )
  on conflict (id) do nothing;
  insert into public.user_settings (user_id) values (new.id) on conflict (user_id) do nothing;
  return new;
end;
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();
