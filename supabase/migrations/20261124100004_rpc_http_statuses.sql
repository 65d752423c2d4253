-- The customer RPCs' refusals with the HTTP status they mean (docs/product.md §17.6). PostgREST answers P0002
-- ("no data found") and 55P03 ("lock not available") with 500, as faults of the server; a missing
-- configuration or alert is a 404 and a report already being generated a 409, which PostgREST sends for
-- SQLSTATE PT404 and PT409. The bodies are those of 20261122400000 and 20261122500000 (moved to `private`
-- behind their aal2 guards by 20261124000000) with only the error codes changed.

create or replace function private.request_report_unguarded(p_configuration uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_config public.report_configurations;
  v_length interval;
begin
  select * into v_config from public.report_configurations
  where id = p_configuration and user_id = (select auth.uid())
  for update;
  -- Guard: another customer's configuration looks exactly like a missing one.
  if not found then
    raise exception 'no such report configuration' using errcode = 'PT404';
  end if;
  if exists (select 1 from public.generated_reports where configuration_id = v_config.id and status = 'generating') then
    raise exception 'a report of this configuration is already being generated' using errcode = 'PT409';
  end if;
  v_length := case v_config.schedule_type
    when 'daily' then interval '1 day'
    when 'weekly' then interval '7 days'
    when 'monthly' then interval '1 month'
    else interval '30 days' end;
  return public.enqueue_report(v_config.id, now() - v_length, now(), 'manual', 'report:manual:' || gen_random_uuid()::text);
end;
$$;

create or replace function private.mark_recommendation_implemented_unguarded(p_recommendation uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_rec public.ai_security_recommendations;
  v_auto boolean;
begin
  -- Guard: security definer bypasses row-level security, so ownership is checked here (no row, no write).
  select * into v_rec from public.ai_security_recommendations
  where id = p_recommendation and user_id = (select auth.uid())
  for update;
  if not found then
    raise exception 'recommendation not found' using errcode = 'PT404';
  end if;
  -- Guard: completed or dismissed recommendations are history.
  if v_rec.status not in ('pending', 'in_progress') then
    raise exception 'only an open recommendation can be marked implemented' using errcode = '22023';
  end if;
  v_auto := coalesce((select automatic_remediation from public.user_settings where user_id = v_rec.user_id), false);
  if v_auto then
    update public.ai_security_recommendations
    set status = 'in_progress', implemented_at = now(), verification_requested_at = now(),
        verification_queued_at = null, resolution = 'Marked implemented; the agents are verifying it with a new scan'
    where id = v_rec.id;
    return 'in_progress';
  end if;
  update public.ai_security_recommendations
  set status = 'completed', implemented_at = now(), completed_at = now(), completed_by = 'user',
      verification_requested_at = null, resolution = 'Marked implemented by you'
  where id = v_rec.id;
  return 'completed';
end;
$$;

create or replace function private.resolve_security_event_unguarded(p_event uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Guard: ownership checked here, as row-level security does not apply inside security definer.
  update public.security_events
  set status = 'resolved', resolved_at = now(), resolved_by = 'user', resolution = 'Resolved by you'
  where id = p_event and user_id = (select auth.uid()) and status in ('open', 'investigating');
  if not found then
    raise exception 'open alert not found' using errcode = 'PT404';
  end if;
end;
$$;
