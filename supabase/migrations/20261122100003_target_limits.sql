-- Per-target limits (docs/product.md §10.1): besides rate_limit (requests per second the scanners may send), a target
-- has max_concurrent_scans, the number of scans of it that may run at one time. claim_jobs enforces it for
-- every worker on every machine: a scan job of a target that already runs its allowed number of scans
-- stays queued (it waits) and the claim passes on to other work.

alter table public.scan_targets
  add column max_concurrent_scans integer not null default 1 check (max_concurrent_scans between 1 and 10);
comment on column public.scan_targets.rate_limit is
  'requests per second all scans of this target together may send (each of max_concurrent_scans gets its share)';
comment on column public.scan_targets.max_concurrent_scans is
  'scans of this target that may run at the same time; further scan jobs wait in the queue';

-- The customer chooses both limits for their own targets.
grant insert (max_concurrent_scans) on table public.scan_targets to authenticated;
grant update (max_concurrent_scans) on table public.scan_targets to authenticated;

-- Jobs of one target, for the concurrency count at claim time.
create index jobs_scan_target_idx on public.jobs ((payload ->> 'target_id'))
  where kind = 'scan' and status in ('running', 'cancelled');

-- claim_jobs as in 20261122100001, with the per-target limit: candidates are taken in queue order and,
-- for a scan, claimed only while fewer than max_concurrent_scans scans of its target hold a live lease.
-- Claimers of one target are serialised by a transaction-scoped advisory lock, so two workers racing
-- for two jobs of the same target cannot both see "none running" and both claim.
create or replace function public.claim_jobs(p_worker text, p_kinds text[], p_n integer, p_lease_seconds integer)
returns setof public.jobs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_dead record;
  v_candidate record;
  v_job public.jobs;
  v_claimed integer := 0;
  v_limit integer;
  v_busy integer;
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

  for v_candidate in
    select id, kind, payload from public.jobs
    where kind = any (p_kinds)
      and ((status = 'queued' and run_at <= now()) or (status = 'running' and lease_until < now()))
    order by priority desc, run_at, created_at
    -- Guard: bounds the work of one claim when many due jobs wait behind busy targets.
    limit 500
    for update skip locked
  loop
    exit when v_claimed >= least(p_n, 100);
    if v_candidate.kind = 'scan' and v_candidate.payload ? 'target_id' then
      -- Guard: one claimer at a time decides for a target, and sees the claims committed before it.
      perform pg_advisory_xact_lock(hashtextextended('vigil.scan_target:' || (v_candidate.payload ->> 'target_id'), 0));
      select t.max_concurrent_scans into v_limit
      from public.scan_targets t where t.id = (v_candidate.payload ->> 'target_id')::uuid;
      -- Scans holding a live lease, including cancelled ones still winding down.
      select count(*) into v_busy
      from public.jobs j
      where j.kind = 'scan' and j.id <> v_candidate.id
        and j.payload ->> 'target_id' = v_candidate.payload ->> 'target_id'
        and j.status in ('running', 'cancelled') and j.lease_until >= now();
      if v_busy >= coalesce(v_limit, 1) then
        continue;
      end if;
    end if;
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
    where j.id = v_candidate.id
    returning j.* into v_job;
    v_claimed := v_claimed + 1;
    return next v_job;
  end loop;
end;
$$;

revoke all on function public.claim_jobs(text, text[], integer, integer) from public, anon, authenticated;
grant execute on function public.claim_jobs(text, text[], integer, integer) to service_role;
