-- Checkout and the payment webhook (docs/product.md §4, §5, §7): the card-payment provider's customer per user,
-- local checkout sessions (the embedded stack's stand-in for the hosted checkout page), the ledger of
-- processed webhook events, and the one function the webhook applies subscription state through.
-- Every table here is service-only: row-level security on, no policies, no grants to clients.

create table public.billing_customers (
  user_id uuid primary key references auth.users (id) on delete cascade,
  provider_customer_id text not null unique,
  created_at timestamptz not null default now()
);
comment on table public.billing_customers is 'the card-payment provider''s customer id of each user, reused by every checkout';

create table public.checkout_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role_ids uuid[] not null check (cardinality(role_ids) between 1 and 20),
  subtotal integer not null check (subtotal >= 0),
  discount integer not null check (discount >= 0),
  total integer not null check (total >= 0),
  success_url text not null,
  cancel_url text not null,
  -- The completion form's token: a POST without it is refused (CSRF).
  csrf_token text not null check (char_length(csrf_token) >= 32),
  status text not null default 'open' check (status in ('open', 'completing', 'complete')),
  expires_at timestamptz not null default now() + interval '24 hours',
  completed_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.checkout_sessions is 'local checkout sessions, used only when no payment provider key is configured';
create index checkout_sessions_user_id_idx on public.checkout_sessions (user_id);

create table public.billing_events (
  id text primary key,
  type text not null,
  created timestamptz not null,
  outcome text not null,
  processed_at timestamptz not null default now()
);
comment on table public.billing_events is 'webhook events already processed: a replayed event id changes nothing';

-- The time of the provider state a row shows: an event older than it never overwrites it.
alter table public.subscriptions add column provider_state_at timestamptz;
-- The monthly amount after the bundle discount, in USD cents (the next charge).
alter table public.subscriptions add column monthly_amount integer check (monthly_amount >= 0);
alter table public.user_agent_subscriptions add column provider_subscription_id text;
alter table public.user_agent_subscriptions add column provider_state_at timestamptz;

alter table public.billing_customers enable row level security;
alter table public.checkout_sessions enable row level security;
alter table public.billing_events enable row level security;
revoke all on table public.billing_customers, public.checkout_sessions, public.billing_events from anon, authenticated;
