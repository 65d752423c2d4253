-- Intrusive checks only with the owner's consent (docs/scanners/checks.md §2, docs/product.md §10.1).
-- A check that changes the target to prove a problem (a marker file written over WebDAV or anonymous FTP,
-- a form sent) is intrusive; it runs only on a target whose owner has turned allow_intrusive on. The
-- setting is off for every target, old and new; only the owner may change it (the column grant below and
-- the owner-only update policy of 20261122100000), and intrusive_allowed_at records when it was given.
-- enqueue_scan carries it into the scan job's payload; the worker runs intrusive checks only when both
-- the payload and the target still say so at run time (consent withdrawn after queueing wins).

alter table public.scan_targets
  add column allow_intrusive boolean not null default false,
  add column intrusive_allowed_at timestamptz,
  add constraint scan_targets_intrusive_consent_check check (allow_intrusive = (intrusive_allowed_at is not null));
comment on column public.scan_targets.allow_intrusive is
  'the owner allows intrusive checks (they change the target to prove a problem, writing only markers of their own, and clean up)';
comment on column public.scan_targets.intrusive_allowed_at is
  'when the owner turned allow_intrusive on (null while off); set by trigger, never by a client';

-- The owner flips it; nobody else can (RLS: "scan_targets: owner updates"). Not on insert: a new target
-- starts without consent, given afterwards on purpose.
grant update (allow_intrusive) on table public.scan_targets to authenticated;

create function public._scan_targets_intrusive_consent()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not new.allow_intrusive then
    new.intrusive_allowed_at := null;
  elsif tg_op = 'INSERT' or not old.allow_intrusive then
    new.intrusive_allowed_at := now();
  else
    new.intrusive_allowed_at := old.intrusive_allowed_at;
  end if;
  return new;
end;
$$;
revoke all on function public._scan_targets_intrusive_consent() from public, anon, authenticated;
create trigger scan_targets_intrusive_consent
  before insert or update on public.scan_targets
  for each row execute function public._scan_targets_intrusive_consent();

-- enqueue_scan as in 20261122100001, with the target's consent in the job's payload.
create or replace function public.enqueue_scan(
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
      'options', coalesce(p_options, '{}'::jsonb), 'trigger', p_trigger,
      'allow_intrusive', v_target.allow_intrusive),
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
revoke all on function public.enqueue_scan(uuid, public.security_tool_type, uuid, text, jsonb, text, text) from public, anon, authenticated;
grant execute on function public.enqueue_scan(uuid, public.security_tool_type, uuid, text, jsonb, text, text) to service_role;

-- ingest_findings as in 20261122500000, told which rules the scan did not check (the intrusive checks left
-- out without consent): their open findings are neither seen nor fixed by it, so withdrawing consent never
-- closes what an intrusive check found.
drop function public.ingest_findings(uuid, jsonb, boolean);
create function public.ingest_findings(
  p_scan uuid, p_findings jsonb, p_complete boolean, p_unchecked_rules text[] default '{}'
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_scan public.scan_results;
  v_scanner text;
  v_new uuid[];
  v_regressed uuid[];
  v_seen uuid[];
  v_fixed uuid[] := '{}';
  v_auto boolean;
  v_label text;
begin
  select * into v_scan from public.scan_results where id = p_scan;
  if not found or v_scan.target_id is null then
    raise exception 'ingest_findings: scan % has no target', p_scan using errcode = '22023';
  end if;
  v_scanner := case v_scan.scan_type::text when 'siem' then 'infrastructure' else v_scan.scan_type::text end;
  v_auto := coalesce((select automatic_remediation from public.user_settings where user_id = v_scan.user_id), false);
  v_label := public.scan_label(p_scan);

  update public.findings set status = 'open', accepted_until = null
  where user_id = v_scan.user_id and status = 'accepted_risk' and accepted_until <= now();

  create temporary table if not exists pg_temp.ingest_rows (like public.findings including defaults) on commit drop;
  truncate pg_temp.ingest_rows;
  insert into pg_temp.ingest_rows (user_id, target_id, scan_id, scanner, fingerprint, rule_id, title, severity,
    cvss_vector, cvss_score, cwe, owasp, location, evidence, remediation, compliance)
  select distinct on (f.fingerprint) v_scan.user_id, v_scan.target_id, p_scan, v_scanner, f.fingerprint, f.rule_id, f.title,
    f.severity, f.cvss_vector, f.cvss_score, f.cwe, f.owasp, left(f.location, 2048), left(coalesce(f.evidence, ''), 4000),
    coalesce(f.remediation, ''), coalesce(f.compliance, '[]'::jsonb)
  from jsonb_to_recordset(coalesce(p_findings, '[]'::jsonb)) as f(fingerprint text, rule_id text, title text,
    severity text, cvss_vector text, cvss_score numeric, cwe text, owasp text, location text, evidence text,
    remediation text, compliance jsonb);

  select coalesce(array_agg(fi.id), '{}') into v_regressed
  from public.findings fi join pg_temp.ingest_rows r on r.fingerprint = fi.fingerprint
  where fi.user_id = v_scan.user_id and fi.status = 'fixed';

  with upserted as (
    insert into public.findings as fi (user_id, target_id, scan_id, scanner, fingerprint, rule_id, title, severity,
      cvss_vector, cvss_score, cwe, owasp, location, evidence, remediation, compliance)
    select user_id, target_id, scan_id, scanner, fingerprint, rule_id, title, severity, cvss_vector, cvss_score,
      cwe, owasp, location, evidence, remediation, compliance
    from pg_temp.ingest_rows
    on conflict (user_id, fingerprint) do update set
      scan_id = excluded.scan_id, title = excluded.title, severity = excluded.severity,
      cvss_vector = excluded.cvss_vector, cvss_score = excluded.cvss_score, cwe = excluded.cwe, owasp = excluded.owasp,
      evidence = excluded.evidence, remediation = excluded.remediation, compliance = excluded.compliance,
      last_seen = now(),
      status = case when fi.status = 'fixed' then 'open' else fi.status end,
      regression = fi.regression or fi.status = 'fixed',
      reopened_count = fi.reopened_count + (fi.status = 'fixed')::int,
      fixed_at = case when fi.status = 'fixed' then null else fi.fixed_at end
    returning fi.id, (xmax = 0) as inserted
  )
  select coalesce(array_agg(id) filter (where inserted), '{}'), coalesce(array_agg(id), '{}') into v_new, v_seen from upserted;

  if p_complete then
    with fixed as (
      update public.findings
      set status = 'fixed', fixed_at = now(), accepted_until = null
      where user_id = v_scan.user_id and target_id = v_scan.target_id and scanner = v_scanner
        and status in ('open', 'accepted_risk') and not (id = any (v_seen))
        -- Guard: a rule this scan did not check (its check was left out) proves nothing fixed.
        and not (rule_id = any (coalesce(p_unchecked_rules, '{}')))
      returning id
    )
    select coalesce(array_agg(id), '{}') into v_fixed from fixed;
  end if;

  insert into public.security_events (user_id, event_type, description, severity, scan_result_id, finding_id, details)
  select fi.user_id,
    case when fi.id = any (v_regressed) then 'vulnerability_regression' else 'vulnerability_detected' end,
    case when fi.id = any (v_regressed) then 'Fixed issue is back: ' else '' end || fi.title || ' at ' || fi.location,
    fi.severity::public.alert_severity, p_scan, fi.id,
    jsonb_build_object('rule_id', fi.rule_id, 'cwe', fi.cwe, 'cvss_score', fi.cvss_score, 'location', fi.location,
      'target', v_scan.target, 'scanner', v_scanner)
  from public.findings fi
  where fi.id = any (v_new || v_regressed) and fi.severity in ('critical', 'high')
    -- An alert left open (automatic remediation off) already tells of this finding: no second one.
    and not exists (select 1 from public.security_events e
                    where e.finding_id = fi.id and e.status in ('open', 'investigating'));

  if v_auto then
    -- The agent verified the fix: it closes the alert and says so.
    update public.security_events
    set status = 'resolved', resolved_at = now(), resolved_by = 'agent',
        resolution = 'Verified fixed by ' || v_label,
        details = details || jsonb_build_object('resolved_by_scan', p_scan)
    where finding_id = any (v_fixed) and status in ('open', 'investigating');
  else
    -- Nothing closes by itself: the alert stays open, noting that this scan no longer saw the issue.
    update public.security_events
    set details = details || jsonb_build_object('no_longer_seen_by_scan', p_scan)
    where finding_id = any (v_fixed) and status in ('open', 'investigating');
  end if;

  -- An alert the customer closed by hand while its finding is still open is open again.
  update public.security_events e
  set status = 'open', resolved_at = null, resolved_by = null,
      resolution = 'Reopened: ' || v_label || ' still sees it'
  from public.findings fi
  where e.finding_id = fi.id and fi.id = any (v_seen) and fi.status = 'open'
    and e.status = 'resolved' and e.resolved_by = 'user';

  return jsonb_build_object('new', to_jsonb(v_new), 'regressed', to_jsonb(v_regressed), 'fixed', to_jsonb(v_fixed),
    'seen', to_jsonb(v_seen), 'automatic_remediation', v_auto, 'scan_label', v_label,
    'scan_started', coalesce(v_scan.start_time, v_scan.created_at));
end;
$$;
revoke all on function public.ingest_findings(uuid, jsonb, boolean, text[]) from public, anon, authenticated;
grant execute on function public.ingest_findings(uuid, jsonb, boolean, text[]) to service_role;
