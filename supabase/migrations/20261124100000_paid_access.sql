-- Paid features (docs/product.md §14): scans, target verification and reports are for customers with an active or
-- trialing agent, and a scan (or a verification for one) only with an agent whose role covers its type.
--
-- Which agent role covers which scan type is defined here, once, as data (public.agent_scan_coverage):
--   webapp          Penetration Tester, Application Security  (web applications, OWASP Top 10)
--   api             Penetration Tester, Application Security  (API security testing)
--   infrastructure  Penetration Tester, Cloud Security        (network and service exposure, TLS)
--   siem            Cybersecurity Analyst, Incident Responder, Forensics Investigator (logs and events)
--   cloud_security  Cloud Security
--   threat_intel    Threat Intelligence
-- Reports summarise what the agents found: any active or trialing agent may have them.
--
-- Enforced in the database on the one table every piece of that work goes through: a job of kind scan or
-- verify needs an agent covering its payload's tool_type, a report job any agent (trigger on public.jobs),
-- so the edge functions, the RPCs (enqueue_scan, request_report, enqueue_report), the schedulers and any
-- service-role insert are held to the same rule. The edge functions check first to answer 402 with the
-- way to activate before any work starts. Refusals are SQLSTATE PT402: PostgREST answers them 402.

create table public.agent_scan_coverage (
  role_type public.agent_role_type not null,
  scan_type public.security_tool_type not null,
  primary key (scan_type, role_type)
);
comment on table public.agent_scan_coverage is
  'which agent role covers which scan type: a scan needs an active or trialing agent of a covering role';

insert into public.agent_scan_coverage (scan_type, role_type) values
  ('webapp', 'penetration_tester'), ('webapp', 'application_security'),
  ('api', 'penetration_tester'), ('api', 'application_security'),
  ('infrastructure', 'penetration_tester'), ('infrastructure', 'cloud_security'),
  ('siem', 'cybersecurity_analyst'), ('siem', 'incident_response'), ('siem', 'forensics_investigator'),
  ('cloud_security', 'cloud_security'),
  ('threat_intel', 'threat_intelligence');

-- Catalogue: everyone reads it (the app names the agents that would unlock a scanner); no client writes it.
alter table public.agent_scan_coverage enable row level security;
revoke all on table public.agent_scan_coverage from anon, authenticated;
grant select on table public.agent_scan_coverage to anon, authenticated;
create policy "agent_scan_coverage: everyone reads the catalogue" on public.agent_scan_coverage
  for select to anon, authenticated using (true);

-- The coverage lookup walks the customer's agent rows by user.
create index user_agent_subscriptions_user_status_idx on public.user_agent_subscriptions (user_id, status);

-- For each scan type: whether p_user has an active or trialing agent covering it, and the agents that would.
-- security invoker: a customer sees only their own agent rows (row-level security), so asking about another
-- user answers "not covered" everywhere and reveals nothing; the service role sees everyone's.
create function public.agent_coverage(p_user uuid)
returns table (scan_type public.security_tool_type, covered boolean, agents text[])
language sql
stable
security invoker
set search_path = ''
as $$
  select t.scan_type,
    exists (
      select 1
      from public.user_agent_subscriptions u
      join public.agent_roles r on r.id = u.agent_role_id
      join public.agent_scan_coverage c on c.role_type = r.role_type
      where u.user_id = p_user and u.status in ('active', 'trialing') and c.scan_type = t.scan_type),
    array(
      select r.name
      from public.agent_roles r
      join public.agent_scan_coverage c on c.role_type = r.role_type
      where c.scan_type = t.scan_type
      order by r.display_order, r.name)
  from unnest(enum_range(null::public.security_tool_type)) as t(scan_type)
$$;
revoke all on function public.agent_coverage(uuid) from public, anon;
grant execute on function public.agent_coverage(uuid) to authenticated, service_role;

-- Raises PT402 unless p_user has an active or trialing agent covering p_scan_type (null: any agent, as a
-- report needs). The message says what to activate and where, for the app to show as it is.
create function public.require_agent(p_user uuid, p_scan_type public.security_tool_type default null)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_agents text[];
begin
  if p_scan_type is null then
    if not exists (select 1 from public.user_agent_subscriptions
                   where user_id = p_user and status in ('active', 'trialing')) then
      raise exception 'Reports need an active security agent. Activate one on the Agents page.'
        using errcode = 'PT402', hint = '/dashboard/agents';
    end if;
    return;
  end if;
  if not (select c.covered from public.agent_coverage(p_user) c where c.scan_type = p_scan_type) then
    select c.agents into v_agents from public.agent_coverage(p_user) c where c.scan_type = p_scan_type;
    raise exception '% scans need an active % agent. Activate one on the Agents page.',
      case p_scan_type
        when 'webapp' then 'Web application'
        when 'api' then 'API security'
        when 'infrastructure' then 'Infrastructure'
        when 'siem' then 'SIEM'
        when 'cloud_security' then 'Cloud security'
        when 'threat_intel' then 'Threat intelligence'
      end,
      array_to_string(v_agents, ' or ')
      using errcode = 'PT402', hint = '/dashboard/agents', detail = p_scan_type::text;
  end if;
end;
$$;
revoke all on function public.require_agent(uuid, public.security_tool_type) from public, anon, authenticated;
grant execute on function public.require_agent(uuid, public.security_tool_type) to service_role;

-- Guard: no scan, verification or report job is queued for a customer without the agent for it, whoever
-- inserts it. Jobs without a customer (internal analysis) and other kinds pass.
create function public.jobs_require_agent()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_type public.security_tool_type;
begin
  if new.user_id is null then
    return new;
  end if;
  if new.kind in ('scan', 'verify') then
    if new.payload ->> 'tool_type' is null
        or not (new.payload ->> 'tool_type') = any (enum_range(null::public.security_tool_type)::text[]) then
      raise exception 'a % job names the scan type it is for (payload.tool_type)', new.kind using errcode = '22023';
    end if;
    v_type := (new.payload ->> 'tool_type')::public.security_tool_type;
    perform public.require_agent(new.user_id, v_type);
  elsif new.kind = 'report' then
    perform public.require_agent(new.user_id, null);
  end if;
  return new;
end;
$$;
revoke execute on function public.jobs_require_agent() from public, anon, authenticated;
create trigger jobs_require_agent before insert on public.jobs
  for each row execute function public.jobs_require_agent();
