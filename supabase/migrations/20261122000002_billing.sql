-- Billing: one subscription per customer (kept in step with the card-payment provider by the payment
-- webhook, which runs with the service role) and the agent roles it activates.
-- Customers only read these rows: every write comes from checkout and the webhook.

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique default auth.uid() references auth.users (id) on delete cascade,
  plan_id uuid references public.pricing_plans (id) on delete restrict,
  provider_subscription_id text unique,
  provider_customer_id text,
  status public.subscription_status not null default 'incomplete',
  trial_ends_at timestamptz,
  current_period_ends_at timestamptz,
  cancel_at_period_end boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on column public.subscriptions.provider_subscription_id is 'the card-payment provider''s subscription id';
comment on column public.subscriptions.provider_customer_id is 'the card-payment provider''s customer id';
create index subscriptions_plan_id_idx on public.subscriptions (plan_id);
create index subscriptions_provider_customer_id_idx on public.subscriptions (provider_customer_id);

create table public.user_agent_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  agent_role_id uuid not null references public.agent_roles (id) on delete restrict,
  subscription_id uuid references public.subscriptions (id) on delete set null,
  status public.subscription_status not null default 'incomplete',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, agent_role_id)
);
comment on column public.user_agent_subscriptions.status is 'active and trialing count as activated';
create index user_agent_subscriptions_agent_role_id_idx on public.user_agent_subscriptions (agent_role_id);
create index user_agent_subscriptions_subscription_id_idx on public.user_agent_subscriptions (subscription_id);

create trigger set_updated_at before update on public.subscriptions for each row execute function public.set_updated_at();
create trigger set_updated_at before update on public.user_agent_subscriptions for each row execute function public.set_updated_at();

alter table public.subscriptions enable row level security;
alter table public.user_agent_subscriptions enable row level security;

revoke all on table public.subscriptions, public.user_agent_subscriptions from anon, authenticated;
grant select on table public.subscriptions, public.user_agent_subscriptions to authenticated;
create policy "subscriptions: owner reads" on public.subscriptions
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "user_agent_subscriptions: owner reads" on public.user_agent_subscriptions
  for select to authenticated using ((select auth.uid()) = user_id);
