-- Report delivery: the private 'reports' bucket (files at <user_id>/<report_id>.<ext>), the report jobs
-- the scheduler and the "Generate now" button enqueue, and each configuration's time zone (schedules run
-- at the configuration's local wall-clock time, so a daily 09:00 report stays at 09:00 across DST).

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('reports', 'reports', false, 52428800, array['application/pdf', 'text/csv', 'application/json'])
on conflict (id) do nothing;

-- A customer reads only objects in the folder named after their own user id; writes are the agents'
-- (service role). Signed URLs carry their own authorisation and expire.
create policy "reports: owner reads own folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'reports' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- True when p_zone is an IANA time zone Postgres knows.
create function public.is_time_zone(p_zone text)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  perform now() at time zone p_zone;
  return true;
exception when others then
  return false;
end;
$$;
grant execute on function public.is_time_zone(text) to anon, authenticated, service_role;

alter table public.report_configurations
  add column time_zone text not null default 'UTC'
    check (char_length(time_zone) between 1 and 64 and public.is_time_zone(time_zone));
grant insert (time_zone) on table public.report_configurations to authenticated;
grant update (time_zone) on table public.report_configurations to authenticated;

-- A changed schedule is recomputed by the scheduler on its next tick (next_run_at is its to write).
create function public.report_configuration_reschedule()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.schedule_type is distinct from old.schedule_type or new.time_zone is distinct from old.time_zone
      or (new.is_enabled and not old.is_enabled) then
    new.next_run_at := null;
  end if;
  return new;
end;
$$;
revoke execute on function public.report_configuration_reschedule() from public, anon, authenticated;
create trigger report_configuration_reschedule before update on public.report_configurations
  for each row execute function public.report_configuration_reschedule();

create index generated_reports_configuration_status_idx on public.generated_reports (configuration_id, status);

-- Enqueues one report of a configuration for a period: the job (idempotent on p_key, so concurrent
-- schedulers produce one period once) and its generated_reports row in 'generating'. Returns the report
-- id, or null when p_key was already enqueued. Service role only.
create function public.enqueue_report(
  p_configuration uuid,
  p_period_start timestamptz,
  p_period_end timestamptz,
  p_trigger text,
  p_key text
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_config public.report_configurations;
  v_job uuid;
  v_report uuid;
begin
  select * into v_config from public.report_configurations where id = p_configuration;
  if not found then
    raise exception 'no such report configuration' using errcode = 'P0002';
  end if;
  if p_period_start is null or p_period_end is null or p_period_end <= p_period_start then
    raise exception 'a report needs a period with start before end' using errcode = '22023';
  end if;
  insert into public.jobs (user_id, kind, payload, priority, max_attempts, idempotency_key)
  values (v_config.user_id, 'report', '{}'::jsonb, case when p_trigger = 'manual' then 5 else 0 end, 3, p_key)
  on conflict (idempotency_key) do nothing
  returning id into v_job;
  if v_job is null then
    return null;
  end if;
  insert into public.generated_reports (user_id, configuration_id, report_type, status, format, period_start, period_end)
  values (v_config.user_id, v_config.id, v_config.report_type, 'generating', 'pdf', p_period_start, p_period_end)
  returning id into v_report;
  update public.jobs
  set payload = jsonb_build_object('report_id', v_report, 'configuration_id', v_config.id, 'trigger', p_trigger)
  where id = v_job;
  return v_report;
end;
$$;
revoke all on function public.enqueue_report(uuid, timestamptz, timestamptz, text, text) from public, anon, authenticated;
grant execute on function public.enqueue_report(uuid, timestamptz, timestamptz, text, text) to service_role;

-- "Generate now" for the caller's own configuration: a report over the last period of its schedule
-- (30 days for one-time reports), ending now. One at a time per configuration, so the button cannot
-- flood the queue.
create function public.request_report(p_configuration uuid)
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
    raise exception 'no such report configuration' using errcode = 'P0002';
  end if;
  if exists (select 1 from public.generated_reports where configuration_id = v_config.id and status = 'generating') then
    raise exception 'a report of this configuration is already being generated' using errcode = '55P03';
  end if;
  v_length := case v_config.schedule_type
    when 'daily' then interval '1 day'
    when 'weekly' then interval '7 days'
    when 'monthly' then interval '1 month'
    else interval '30 days' end;
  return public.enqueue_report(v_config.id, now() - v_length, now(), 'manual', 'report:manual:' || gen_random_uuid()::text);
end;
$$;
revoke all on function public.request_report(uuid) from public, anon;
grant execute on function public.request_report(uuid) to authenticated, service_role;

-- A report job that ends dead or cancelled (a worker died on the last attempt, say) settles its report as
-- failed, so no row stays 'generating' forever (which would also block "Generate now").
create function public.report_job_settle()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.generated_reports
  set status = 'failed', failure_reason = coalesce(new.last_error, 'the report job ended as ' || new.status)
  where id = (new.payload ->> 'report_id')::uuid and status = 'generating';
  return new;
end;
$$;
revoke execute on function public.report_job_settle() from public, anon, authenticated;
create trigger report_job_settle after update of status on public.jobs
  for each row when (new.kind = 'report' and new.status in ('dead', 'cancelled') and new.payload ? 'report_id')
  execute function public.report_job_settle();
