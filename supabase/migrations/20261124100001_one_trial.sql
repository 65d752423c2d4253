-- One free trial per customer, and per card where the payment provider tells us its fingerprint
-- (docs/product.md §14). Checkout offers the 7-day trial only to a customer who never had one; the payment webhook
-- claims the trial of every trialing subscription it sees, and a subscription whose claim is refused (the
-- customer or the card already had a trial, e.g. two checkouts opened at once, or a second account with
-- the same card) has its trial ended at the provider, so it starts paid.

create table public.billing_trials (
  provider_subscription_id text primary key check (char_length(provider_subscription_id) between 1 and 255),
  -- Kept when the account is deleted: the card's trial stays used.
  user_id uuid references auth.users (id) on delete set null,
  card_fingerprint text check (char_length(card_fingerprint) between 1 and 255),
  started_at timestamptz not null default now()
);
comment on table public.billing_trials is
  'every subscription that got a free trial, with its customer and card fingerprint (one trial each)';
create index billing_trials_user_id_idx on public.billing_trials (user_id);
create index billing_trials_card_fingerprint_idx on public.billing_trials (card_fingerprint);

-- Service-only: row-level security on, no policies, no grants to clients.
alter table public.billing_trials enable row level security;
revoke all on table public.billing_trials from anon, authenticated;

-- Trials given before this migration count.
insert into public.billing_trials (provider_subscription_id, user_id, started_at)
select s.provider_subscription_id, s.user_id, coalesce(s.trial_ends_at - interval '7 days', s.created_at)
from public.subscriptions s
where s.trial_ends_at is not null and s.provider_subscription_id is not null
on conflict do nothing;

-- The local checkout offers what create-checkout-session decided for the customer when it priced the order.
alter table public.checkout_sessions add column trial boolean not null default true;

-- Whether p_user may still get a free trial. Service role (checkout).
create function public.trial_available(p_user uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select not exists (select 1 from public.billing_trials where user_id = p_user)
$$;
revoke all on function public.trial_available(uuid) from public, anon, authenticated;
grant execute on function public.trial_available(uuid) to service_role;

-- The signed-in customer's own answer, for the plans and checkout screens.
create function public.my_trial_available()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and public.trial_available((select auth.uid()))
$$;
revoke all on function public.my_trial_available() from public, anon;
grant execute on function public.my_trial_available() to authenticated;

-- Claims the free trial of subscription p_subscription for p_user paying with the card p_fingerprint (null
-- when the provider did not say). True when the subscription may keep its trial: it already holds it, or
-- neither the customer nor the card had one (then it is recorded). False: end its trial.
-- Concurrent claims of one customer or one card are serialised (transaction-scoped advisory locks, taken
-- in a fixed order: customer, then card), so two deliveries at once cannot both win.
create function public.billing_claim_trial(p_user uuid, p_subscription text, p_fingerprint text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_fingerprint text := nullif(btrim(p_fingerprint), '');
begin
  if p_user is null or p_subscription is null or char_length(p_subscription) = 0 then
    raise exception 'billing_claim_trial: a customer and a subscription are required' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('vigil.trial.user:' || p_user::text, 0));
  if v_fingerprint is not null then
    perform pg_advisory_xact_lock(hashtextextended('vigil.trial.card:' || v_fingerprint, 0));
  end if;
  if exists (select 1 from public.billing_trials where provider_subscription_id = p_subscription) then
    update public.billing_trials set card_fingerprint = coalesce(card_fingerprint, v_fingerprint)
    where provider_subscription_id = p_subscription;
    return true;
  end if;
  if exists (select 1 from public.billing_trials where user_id = p_user)
     or (v_fingerprint is not null
         and exists (select 1 from public.billing_trials where card_fingerprint = v_fingerprint)) then
    return false;
  end if;
  insert into public.billing_trials (provider_subscription_id, user_id, card_fingerprint)
  values (p_subscription, p_user, v_fingerprint);
  return true;
exception when foreign_key_violation then
  -- A deleted account: there is no customer to hold a trial; billing_apply_event records the event as such.
  return true;
end;
$$;
revoke all on function public.billing_claim_trial(uuid, text, text) from public, anon, authenticated;
grant execute on function public.billing_claim_trial(uuid, text, text) to service_role;
