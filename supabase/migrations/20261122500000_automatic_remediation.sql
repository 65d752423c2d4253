-- Automatic remediation (user_settings.automatic_remediation, docs/product.md §11). The agents cannot change a
-- customer's systems, so the setting means: the agents verify fixes and close what is fixed themselves.
--   * On: after a complete scan, the alerts (security_events) of findings the scan no longer sees are
--     resolved by the agent, recording who (resolved_by 'agent'), when (resolved_at) and why (resolution:
--     'Verified fixed by the scan of <time>'); recommendations with no open finding left are completed the
--     same way (agents/pipeline/recommendations.ts). A recommendation the customer marks implemented is
--     verified by a rescan the agents queue (agents/pipeline/verification.ts).
--   * Off: nothing is closed automatically. The finding still records what the scan saw (fixed), but its
--     alert stays open until the customer resolves it, and a recommendation closes when the customer marks
--     it implemented.
--   * Either way, an alert the customer resolved by hand whose finding a later scan still sees is reopened.

alter table public.security_events
  add column resolved_by text check (resolved_by in ('agent', 'user')),
  add column resolution text check (char_length(resolution) <= 500);
comment on column public.security_events.resolved_by is 'who closed the alert: the agent (verified fixed) or the customer';
comment on column public.security_events.resolution is 'why the alert was closed or reopened, in words';

alter table public.ai_security_recommendations
  add column implemented_at timestamptz,
  add column verification_requested_at timestamptz,
  add column verification_queued_at timestamptz,
  add column completed_at timestamptz,
  add column completed_by text check (completed_by in ('agent', 'user')),
  add column resolution text check (char_length(resolution) <= 500);
comment on column public.ai_security_recommendations.implemented_at is 'when the customer said the change is made';
comment on column public.ai_security_recommendations.verification_requested_at is
  'the customer asked for verification (automatic remediation on); the agents queue a rescan';
comment on column public.ai_security_recommendations.verification_queued_at is 'when the agents queued that rescan';
comment on column public.ai_security_recommendations.completed_by is 'who completed it: the agent (verified) or the customer';
create index ai_security_recommendations_verification_idx on public.ai_security_recommendations (verification_requested_at)
  where status = 'in_progress' and verification_requested_at is not null and verification_queued_at is null;

-- When a scan happened, in the words every resolution uses.
create function public.scan_label(p_scan uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select 'the scan of ' || to_char(coalesce(s.start_time, s.created_at) at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')
  from public.scan_results s where s.id = p_scan
$$;
revoke all on function public.scan_label(uuid) from public, anon, authenticated;
grant execute on function public.scan_label(uuid) to service_role;

-- ingest_findings as in 20261122100002, with alert closing decided by the owner's setting (see above).
create or replace function public.ingest_findings(p_scan uuid, p_findings jsonb, p_complete boolean)
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
revoke all on function public.ingest_findings(uuid, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.ingest_findings(uuid, jsonb, boolean) to service_role;

-- The customer says a recommendation is implemented (the one write a customer makes to a recommendation;
-- the table stays service-written). With automatic remediation on it waits for the agents' verification
-- rescan (in progress); with it off the customer's word closes it.
create function public.mark_recommendation_implemented(p_recommendation uuid)
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
    raise exception 'recommendation not found' using errcode = 'P0002';
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
revoke all on function public.mark_recommendation_implemented(uuid) from public, anon, authenticated;
grant execute on function public.mark_recommendation_implemented(uuid) to authenticated;

-- The customer resolves one of its own open alerts by hand (how alerts close with automatic remediation off).
create function public.resolve_security_event(p_event uuid)
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
    raise exception 'open alert not found' using errcode = 'P0002';
  end if;
end;
$$;
revoke all on function public.resolve_security_event(uuid) from public, anon, authenticated;
grant execute on function public.resolve_security_event(uuid) to authenticated;
