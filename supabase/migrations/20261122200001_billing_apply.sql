-- The payment webhook's single write path and the billing summary the settings page reads.
--
-- billing_apply_event records the event id first (a replay changes nothing), then applies the
-- subscription state the event carries unless the row already shows newer provider state (events
-- arrive out of order). It runs in one transaction, so two deliveries of one event cannot both apply.
-- "Live" subscriptions (trialing, active, past_due) are not replaced by another subscription's
-- non-live state: a late event about an old, canceled subscription never hides the current one.

create function public.billing_apply_event(
  p_event_id text,
  p_event_type text,
  p_event_created timestamptz,
  p_state jsonb default null
) returns text
language plpgsql
set search_path = ''
as $$
declare
  v_user uuid;
  v_sub text;
  v_status public.subscription_status;
  v_roles uuid[];
  v_row public.subscriptions;
  v_applies boolean;
  v_row_id uuid;
  v_live constant public.subscription_status[] := array['trialing', 'active', 'past_due']::public.subscription_status[];
begin
  insert into public.billing_events (id, type, created, outcome)
  values (p_event_id, p_event_type, p_event_created, 'processing')
  on conflict (id) do nothing;
  if not found then
    return 'duplicate';
  end if;
  if p_state is null then
    update public.billing_events set outcome = 'recorded' where id = p_event_id;
    return 'recorded';
  end if;

  v_user := (p_state ->> 'user_id')::uuid;
  v_sub := p_state ->> 'provider_subscription_id';
  v_status := (p_state ->> 'status')::public.subscription_status;
  -- Only roles of the catalogue: metadata naming anything else is ignored, never a failed delivery.
  v_roles := array(
    select r.id from public.agent_roles r
    where r.id::text in (select jsonb_array_elements_text(coalesce(p_state -> 'role_ids', '[]'::jsonb)))
  );
  if v_user is null or v_sub is null then
    update public.billing_events set outcome = 'unknown_user' where id = p_event_id;
    return 'unknown_user';
  end if;

  begin

  if p_state ->> 'provider_customer_id' is not null then
    insert into public.billing_customers (user_id, provider_customer_id)
    values (v_user, p_state ->> 'provider_customer_id')
    on conflict do nothing;
  end if;

  select * into v_row from public.subscriptions where user_id = v_user for update;
  v_applies := v_row.id is null
    or (v_row.provider_subscription_id is not distinct from v_sub
        and (v_row.provider_state_at is null or p_event_created >= v_row.provider_state_at))
    or (v_row.provider_subscription_id is distinct from v_sub
        and (v_row.status <> all (v_live)
             or (v_status = any (v_live)
                 and (v_row.provider_state_at is null or p_event_created >= v_row.provider_state_at))));

  if v_applies then
    insert into public.subscriptions as s (
      user_id, provider_subscription_id, provider_customer_id, status, trial_ends_at,
      current_period_ends_at, cancel_at_period_end, monthly_amount, provider_state_at)
    values (
      v_user, v_sub, p_state ->> 'provider_customer_id', v_status, (p_state ->> 'trial_ends_at')::timestamptz,
      (p_state ->> 'current_period_ends_at')::timestamptz, coalesce((p_state ->> 'cancel_at_period_end')::boolean, false),
      (p_state ->> 'monthly_amount')::integer, p_event_created)
    on conflict (user_id) do update set
      provider_subscription_id = excluded.provider_subscription_id,
      provider_customer_id = coalesce(excluded.provider_customer_id, s.provider_customer_id),
      status = excluded.status,
      trial_ends_at = excluded.trial_ends_at,
      current_period_ends_at = excluded.current_period_ends_at,
      cancel_at_period_end = excluded.cancel_at_period_end,
      monthly_amount = coalesce(excluded.monthly_amount, s.monthly_amount),
      provider_state_at = excluded.provider_state_at
    returning id into v_row_id;
  else
    v_row_id := v_row.id;
  end if;

  -- Each role row follows the same ordering rules on its own timestamps.
  insert into public.user_agent_subscriptions as u (
    user_id, agent_role_id, subscription_id, status, provider_subscription_id, provider_state_at)
  select v_user, r, v_row_id, v_status, v_sub, p_event_created from unnest(v_roles) r
  on conflict (user_id, agent_role_id) do update set
    subscription_id = excluded.subscription_id,
    status = excluded.status,
    provider_subscription_id = excluded.provider_subscription_id,
    provider_state_at = excluded.provider_state_at
  where (u.provider_subscription_id is not distinct from excluded.provider_subscription_id
         and (u.provider_state_at is null or excluded.provider_state_at >= u.provider_state_at))
     or (u.provider_subscription_id is distinct from excluded.provider_subscription_id
         and (u.status <> all (v_live)
              or (excluded.status = any (v_live)
                  and (u.provider_state_at is null or excluded.provider_state_at >= u.provider_state_at))));

  -- Roles this subscription no longer carries (changed in the provider's portal) stop.
  update public.user_agent_subscriptions
  set status = 'canceled', provider_state_at = p_event_created
  where user_id = v_user and provider_subscription_id = v_sub and agent_role_id <> all (v_roles)
    and status <> 'canceled' and (provider_state_at is null or p_event_created >= provider_state_at);

  exception when foreign_key_violation then
    -- A deleted account: nothing to update, and a retried delivery would not help. The writes of this
    -- block are undone; the event stays recorded.
    update public.billing_events set outcome = 'unknown_user' where id = p_event_id;
    return 'unknown_user';
  end;

  update public.billing_events set outcome = case when v_applies then 'applied' else 'stale' end
  where id = p_event_id;
  return case when v_applies then 'applied' else 'stale' end;
end;
$$;

revoke all on function public.billing_apply_event(text, text, timestamptz, jsonb) from public, anon, authenticated;
grant execute on function public.billing_apply_event(text, text, timestamptz, jsonb) to service_role;

-- The settings page's billing section: the caller's plan, status, trial end and next charge, or null.
-- security invoker: row-level security on subscriptions decides, so each customer sees only their own.
create function public.billing_summary() returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'status', s.status,
    'trial_ends_at', s.trial_ends_at,
    'current_period_ends_at', s.current_period_ends_at,
    'cancel_at_period_end', s.cancel_at_period_end,
    'next_charge_amount', case when s.status in ('trialing', 'active', 'past_due') and not s.cancel_at_period_end
      then s.monthly_amount end,
    'next_charge_at', case when s.status in ('trialing', 'active', 'past_due') and not s.cancel_at_period_end
      then coalesce(case when s.status = 'trialing' then s.trial_ends_at end, s.current_period_ends_at) end,
    'agents', coalesce((
      select jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'price_monthly', r.price_monthly,
        'status', u.status) order by r.display_order)
      from public.user_agent_subscriptions u join public.agent_roles r on r.id = u.agent_role_id
      where u.user_id = s.user_id and u.status in ('trialing', 'active', 'past_due')), '[]'::jsonb))
  from public.subscriptions s
  where s.user_id = (select auth.uid())
$$;

revoke all on function public.billing_summary() from public, anon;
grant execute on function public.billing_summary() to authenticated;
