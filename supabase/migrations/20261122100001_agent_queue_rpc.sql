-- The queue's only write path. Every function is security definer with an empty search_path and is
-- executable by service_role alone: workers and edge functions call them with the service key.

-- Claims up to p_n due jobs of the given kinds for p_worker: queued jobs whose run_at has come, and
-- running jobs whose lease ran out (their worker died or stalled). A stalled job that has used all its
-- attempts is dead-lettered instead. SKIP LOCKED lets concurrent claimers pass each other's rows.
create function public.claim_jobs(p_worker text, p_kinds text[], p_n integer, p_lease_seconds integer)
returns setof public.jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_dead record;
begin
  if p_worker is null or char_length(p_worker) = 0 or p_n < 1 or p_lease_seconds < 1 then
    raise exception 'claim_jobs: worker id, n >= 1 and lease >= 1 s are required' using errcode = '22023';
  end if;
  for v_dead in
    update public.jobs j
    set status = 'dead', finished_at = now(), locked_by = null, lease_until = null,
        last_error = 'stalled: no heartbeat from ' || coalesce(j.locked_by, '?') || ' since ' || coalesce(j.heartbeat_at::text, '?')
    where j.id in (
      select id from public.jobs
      where status = 'running' and lease_until < now() and attempts >= max_attempts and kind = any (p_kinds)
      for update skip locked
    )
    returning j.*
  loop
    perform public._job_settle_scan(v_dead.payload, 'failed', v_dead.last_error);
  end loop;

  -- Cancelled while running, then the worker died: nothing will finish it but us.
  for v_dead in
    update public.jobs j set finished_at = now(), lease_until = null
    where j.id in (
      select id from public.jobs
      where status = 'cancelled' and finished_at is null and lease_until < now() and kind = any (p_kinds)
      for update skip locked
    )
    returning j.*
  loop
    perform public._job_settle_scan(v_dead.payload, 'stopped', null);
  end loop;

  -- A scan whose worker went silent shows it is being retried.
  update public.scan_results s
  set progress = jsonb_build_object('phase', 'stalled, retrying', 'percent', 0)
  from public.jobs j
  where j.kind = any (p_kinds) and j.kind = 'scan' and j.status = 'running' and j.lease_until < now()
    and s.id = (j.payload ->> 'scan_result_id')::uuid and s.status = 'in_progress';

  return query
  with picked as (
    select id from public.jobs
    where kind = any (p_kinds)
      and ((status = 'queued' and run_at <= now()) or (status = 'running' and lease_until < now()))
    order by priority desc, run_at, created_at
    limit least(p_n, 100)
    for update skip locked
  )
  update public.jobs j
  set last_error = case when j.status = 'running'
        then 'stalled: no heartbeat from ' || coalesce(j.locked_by, '?') || ' since ' || coalesce(j.heartbeat_at::text, '?') || '; retried'
        else j.last_error end,
      status = 'running',
      locked_by = p_worker,
      attempts = j.attempts + 1,
      lease_until = now() + make_interval(secs => p_lease_seconds),
      heartbeat_at = now(),
      started_at = now()
  from picked
  where j.id = picked.id
  returning j.*;
end;
$$;

-- Extends the lease of a job the worker still holds and records its progress. Returns the job's status
-- as the worker must act on it: 'running' (carry on), 'cancelled' (stop now) or 'lost' (another worker
-- holds it, or it is gone: stop without writing results).
create function public.heartbeat_job(p_job uuid, p_worker text, p_lease_seconds integer, p_progress jsonb default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_job public.jobs;
begin
  update public.jobs
  set lease_until = now() + make_interval(secs => p_lease_seconds), heartbeat_at = now(),
      progress = coalesce(p_progress, progress)
  where id = p_job and locked_by = p_worker and status = 'running'
  returning * into v_job;
  if found then
    return 'running';
  end if;
  select * into v_job from public.jobs where id = p_job;
  if found and v_job.status = 'cancelled' and v_job.locked_by = p_worker then
    return 'cancelled';
  end if;
  return 'lost';
end;
$$;

-- Marks a job the worker holds as succeeded. False when the worker no longer holds it.
create function public.complete_job(p_job uuid, p_worker text, p_result jsonb default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A job cancelled while it ran stays cancelled; its (partial) result is kept.
  update public.jobs
  set status = case when status = 'cancelled' then 'cancelled' else 'succeeded' end,
      result = p_result, finished_at = now(), lease_until = null, last_error = null
  where id = p_job and locked_by = p_worker and status in ('running', 'cancelled');
  return found;
end;
$$;

-- Records a failed attempt. Retryable failures go back to the queue after exponential back-off
-- (backoff_seconds * 2^(attempts-1), at most an hour); the last attempt, or a permanent failure, is
-- dead-lettered. Returns the job's new status ('queued', 'dead') or 'lost'.
create function public.fail_job(p_job uuid, p_worker text, p_error text, p_retryable boolean default true)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_job public.jobs;
  v_status text;
begin
  select * into v_job from public.jobs where id = p_job and locked_by = p_worker and status in ('running', 'cancelled') for update;
  if not found then
    return 'lost';
  end if;
  -- Failing after a cancel ends the job as cancelled, never as a retry.
  if v_job.status = 'cancelled' then
    update public.jobs set finished_at = now(), lease_until = null, last_error = left(p_error, 4000) where id = p_job;
    perform public._job_settle_scan(v_job.payload, 'stopped', null);
    return 'cancelled';
  end if;
  v_status := case when p_retryable and v_job.attempts < v_job.max_attempts then 'queued' else 'dead' end;
  update public.jobs
  set status = v_status,
      last_error = left(p_error, 4000),
      locked_by = case when v_status = 'queued' then null else locked_by end,
      lease_until = null,
      finished_at = case when v_status = 'dead' then now() end,
      run_at = case when v_status = 'queued'
        then now() + make_interval(secs => least(3600, v_job.backoff_seconds * power(2, v_job.attempts - 1)))
        else run_at end
  where id = p_job;
  if v_status = 'dead' then
    perform public._job_settle_scan(v_job.payload, 'failed', left(p_error, 4000));
  end if;
  return v_status;
end;
$$;

-- Cancels a job. A queued job ends at once; a running one is flagged and its worker stops at its next
-- heartbeat, keeping what it found. Either way its scan is marked stopped now. Returns the status the job had.
create function public.cancel_job(p_job uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_job public.jobs;
begin
  select * into v_job from public.jobs where id = p_job for update;
  if not found then
    return 'missing';
  end if;
  if v_job.status in ('queued', 'running') then
    update public.jobs set status = 'cancelled', finished_at = case when v_job.status = 'queued' then now() end
    where id = p_job;
  end if;
  -- The scan shows stopped at once; a running worker stops at its next heartbeat and then records what
  -- it found so far on the same row.
  if v_job.status in ('queued', 'running') then
    perform public._job_settle_scan(v_job.payload, 'stopped', null);
  end if;
  return v_job.status;
end;
$$;

-- A scan whose job ends without a worker writing its result (cancelled while queued, dead-lettered):
-- its scan_results row must not stay in progress forever.
create function public._job_settle_scan(p_payload jsonb, p_status text, p_error text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_payload ? 'scan_result_id' then
    update public.scan_results
    set status = p_status::public.scan_status, end_time = now(), error_message = p_error,
        progress = progress || jsonb_build_object('phase', p_status)
    where id = (p_payload ->> 'scan_result_id')::uuid and status in ('queued', 'in_progress');
  end if;
end;
$$;

-- Enqueues one scan: the job and its scan_results row (in progress, phase queued) in one transaction.
-- With an idempotency key (a schedule slot) a second call for the same key returns null and adds nothing;
-- a scan of that type already running for the customer raises unique_violation (23505).
create function public.enqueue_scan(
  p_user uuid, p_tool public.security_tool_type, p_target_id uuid, p_scanner text,
  p_options jsonb default '{}'::jsonb, p_idempotency_key text default null, p_trigger text default 'manual'
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_target public.scan_targets;
  v_job uuid;
  v_scan uuid := gen_random_uuid();
begin
  select * into v_target from public.scan_targets where id = p_target_id and user_id = p_user;
  -- Guard: only the customer's own, proven targets are ever queued for scanning.
  if not found or v_target.verified_at is null then
    raise exception 'target % is not a verified target of this customer', p_target_id using errcode = '42501';
  end if;
  insert into public.jobs (user_id, kind, payload, idempotency_key, priority)
  values (p_user, 'scan', jsonb_build_object(
      'scan_result_id', v_scan, 'target_id', p_target_id, 'tool_type', p_tool, 'scanner', p_scanner,
      'options', coalesce(p_options, '{}'::jsonb), 'trigger', p_trigger),
    p_idempotency_key, case when p_trigger = 'manual' then 10 else 0 end)
  on conflict (idempotency_key) do nothing
  returning id into v_job;
  if v_job is null then
    return null;
  end if;
  insert into public.scan_results (id, user_id, scan_type, status, target, target_id, job_id, start_time, progress)
  values (v_scan, p_user, p_tool, 'in_progress', v_target.value, p_target_id, v_job, now(),
    jsonb_build_object('phase', 'queued', 'percent', 0));
  return v_job;
end;
$$;

revoke all on function public.claim_jobs(text, text[], integer, integer) from public, anon, authenticated;
revoke all on function public.heartbeat_job(uuid, text, integer, jsonb) from public, anon, authenticated;
revoke all on function public.complete_job(uuid, text, jsonb) from public, anon, authenticated;
revoke all on function public.fail_job(uuid, text, text, boolean) from public, anon, authenticated;
revoke all on function public.cancel_job(uuid) from public, anon, authenticated;
revoke all on function public._job_settle_scan(jsonb, text, text) from public, anon, authenticated, service_role;
revoke all on function public.enqueue_scan(uuid, public.security_tool_type, uuid, text, jsonb, text, text) from public, anon, authenticated;
grant execute on function public.claim_jobs(text, text[], integer, integer) to service_role;
grant execute on function public.heartbeat_job(uuid, text, integer, jsonb) to service_role;
grant execute on function public.complete_job(uuid, text, jsonb) to service_role;
grant execute on function public.fail_job(uuid, text, text, boolean) to service_role;
grant execute on function public.cancel_job(uuid) to service_role;
grant execute on function public.enqueue_scan(uuid, public.security_tool_type, uuid, text, jsonb, text, text) to service_role;

-- Live progress and findings in the app.
alter table public.jobs replica identity full;
alter table public.findings replica identity full;
alter publication supabase_realtime add table public.jobs, public.findings;
