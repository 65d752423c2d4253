-- The findings pipeline's state machine, in one transaction per scan (called by the worker):
--   * a finding not seen before is inserted open;
--   * a fixed finding seen again is reopened as a regression;
--   * an accepted risk whose acceptance expired is open again;
--   * after a complete scan (not stopped, not partial), open and accepted findings of that target and
--     scanner the scan no longer saw are marked fixed: fixed means a retest no longer sees it;
--   * new and regressed critical/high findings open security events; fixed findings resolve theirs.
-- p_findings: [{fingerprint, rule_id, title, severity, cvss_vector, cvss_score, cwe, owasp, location,
-- evidence, remediation, compliance}]. Returns {"new": [...], "regressed": [...], "fixed": [...], "seen": [...]}.
create function public.ingest_findings(p_scan uuid, p_findings jsonb, p_complete boolean)
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
begin
  select * into v_scan from public.scan_results where id = p_scan;
  if not found or v_scan.target_id is null then
    raise exception 'ingest_findings: scan % has no target', p_scan using errcode = '22023';
  end if;
  v_scanner := case v_scan.scan_type::text when 'siem' then 'infrastructure' else v_scan.scan_type::text end;

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
  where fi.id = any (v_new || v_regressed) and fi.severity in ('critical', 'high');

  update public.security_events
  set status = 'resolved', resolved_at = now(),
      details = details || jsonb_build_object('resolved_by_scan', p_scan)
  where finding_id = any (v_fixed) and status in ('open', 'investigating');

  return jsonb_build_object('new', to_jsonb(v_new), 'regressed', to_jsonb(v_regressed), 'fixed', to_jsonb(v_fixed),
    'seen', to_jsonb(v_seen));
end;
$$;
revoke all on function public.ingest_findings(uuid, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.ingest_findings(uuid, jsonb, boolean) to service_role;
