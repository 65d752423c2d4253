-- The second factor enforced by the database (docs/product.md §15), the way Supabase documents it: once a user has
-- a verified factor in auth.mfa_factors, only a token of assurance level aal2 (password and second factor)
-- may read or write that user's rows. A password alone (aal1) then reaches nothing but what the second
-- step needs, which lives outside these tables (the auth server's factors, challenge, verify, sign-out).
-- Written for hosted Supabase as much as for the embedded stack: nothing here touches the auth schema.

-- Helpers no client can call through the REST API (PostgREST exposes only `public`), but every role
-- evaluating a policy may execute.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Whether the request may act for its user: its token is aal2, or its user has no verified factor. A view,
-- not a function: clients may not read auth.mfa_factors, and a view reads it with its owner's rights (as a
-- security definer function would) while staying plain SQL that the planner inlines; every policy reads it
-- through `(select …)`, an init plan run once per statement, never once per row. The claims are parsed
-- once, and the factor lookup uses GoTrue's own index on auth.mfa_factors (user_id, created_at). Measured
-- against a security definer plpgsql function doing the same: about half the cost per request (0.025 ms
-- instead of 0.045 ms on PGlite), as a function call carries its own setup that a view does not.
-- Only the caller's own answer comes out: one row, one boolean.
create view private.assurance with (security_invoker = false) as
select coalesce(claims ->> 'aal', '') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
       where f.user_id = (claims ->> 'sub')::uuid and f.status = 'verified'
    ) as satisfied
from (select nullif(current_setting('request.jwt.claims', true), '')::jsonb as claims) as request;
revoke all on private.assurance from public;
grant select on private.assurance to authenticated, service_role;

-- The same rule for the few security definer RPCs a customer may call (row-level security does not apply
-- inside them): they refuse an aal1 caller whose user has a verified factor, with 42501 (PostgREST: 403).
create function private.require_aal2()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not (select a.satisfied from private.assurance a) then
    raise exception 'AAL2 session is required: verify your second factor first'
      using errcode = '42501', hint = 'insufficient_aal';
  end if;
end;
$$;
revoke all on function private.require_aal2() from public;
grant execute on function private.require_aal2() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- One RESTRICTIVE policy per table, for every command: it narrows whatever the permissive policies allow.
-- Every table in public but the public catalogue (pricing_plans, agent_roles) has one, service-only tables
-- included (defence in depth should a grant ever be added); tests/integration/rls/aal.test.ts fails when a
-- table is missing, so a new table must add its own.

create policy "profiles: aal2 once a second factor exists" on public.profiles as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "user_settings: aal2 once a second factor exists" on public.user_settings as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "two_factor_auth: aal2 once a second factor exists" on public.two_factor_auth as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "subscriptions: aal2 once a second factor exists" on public.subscriptions as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "user_agent_subscriptions: aal2 once a second factor exists" on public.user_agent_subscriptions
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "ai_agents_status: aal2 once a second factor exists" on public.ai_agents_status as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "monitoring_metrics: aal2 once a second factor exists" on public.monitoring_metrics
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "security_tool_configurations: aal2 once a second factor exists" on public.security_tool_configurations
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "scan_results: aal2 once a second factor exists" on public.scan_results as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "security_events: aal2 once a second factor exists" on public.security_events as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "ml_insights: aal2 once a second factor exists" on public.ml_insights as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "ai_security_recommendations: aal2 once a second factor exists" on public.ai_security_recommendations
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "report_configurations: aal2 once a second factor exists" on public.report_configurations
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "generated_reports: aal2 once a second factor exists" on public.generated_reports as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "application_logs: aal2 once a second factor exists" on public.application_logs as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "jobs: aal2 once a second factor exists" on public.jobs as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "scan_targets: aal2 once a second factor exists" on public.scan_targets as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "findings: aal2 once a second factor exists" on public.findings as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "notification_outbox: aal2 once a second factor exists" on public.notification_outbox
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "billing_customers: aal2 once a second factor exists" on public.billing_customers as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "checkout_sessions: aal2 once a second factor exists" on public.checkout_sessions as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "billing_events: aal2 once a second factor exists" on public.billing_events as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "webauthn_challenges: aal2 once a second factor exists" on public.webauthn_challenges
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
create policy "webauthn_credentials: aal2 once a second factor exists" on public.webauthn_credentials
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));

-- Files of private buckets (the generated reports), and Realtime Authorization's messages (private channels:
-- what a token may receive and send there). Clients may not read storage.buckets, so the public buckets'
-- ids come from a security definer helper, once per statement like the factor check.
create function private.public_bucket_ids()
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(b.id), '{}') from storage.buckets b where b.public
$$;
revoke all on function private.public_bucket_ids() from public;
grant execute on function private.public_bucket_ids() to anon, authenticated, service_role;

create policy "objects: aal2 once a second factor exists, in private buckets" on storage.objects
  as restrictive for all to authenticated
  using ((select a.satisfied from private.assurance a) or (select private.public_bucket_ids()) @> array[bucket_id])
  with check ((select a.satisfied from private.assurance a) or (select private.public_bucket_ids()) @> array[bucket_id]);
create policy "messages: aal2 once a second factor exists" on realtime.messages as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));

-- ---------------------------------------------------------------------------------------------------
-- The customer's security definer RPCs: each keeps its body, moved to `private` under a new name, and the
-- public name becomes a guard that checks the assurance level before calling it.

alter function public.request_report(uuid) set schema private;
alter function private.request_report(uuid) rename to request_report_unguarded;
revoke all on function private.request_report_unguarded(uuid) from public, anon, authenticated;
create function public.request_report(p_configuration uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_aal2();
  return private.request_report_unguarded(p_configuration);
end;
$$;
revoke all on function public.request_report(uuid) from public, anon;
grant execute on function public.request_report(uuid) to authenticated, service_role;

alter function public.mark_recommendation_implemented(uuid) set schema private;
alter function private.mark_recommendation_implemented(uuid) rename to mark_recommendation_implemented_unguarded;
revoke all on function private.mark_recommendation_implemented_unguarded(uuid) from public, anon, authenticated;
create function public.mark_recommendation_implemented(p_recommendation uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_aal2();
  return private.mark_recommendation_implemented_unguarded(p_recommendation);
end;
$$;
revoke all on function public.mark_recommendation_implemented(uuid) from public, anon, authenticated;
grant execute on function public.mark_recommendation_implemented(uuid) to authenticated;

alter function public.resolve_security_event(uuid) set schema private;
alter function private.resolve_security_event(uuid) rename to resolve_security_event_unguarded;
revoke all on function private.resolve_security_event_unguarded(uuid) from public, anon, authenticated;
create function public.resolve_security_event(p_event uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.require_aal2();
  perform private.resolve_security_event_unguarded(p_event);
end;
$$;
revoke all on function public.resolve_security_event(uuid) from public, anon, authenticated;
grant execute on function public.resolve_security_event(uuid) to authenticated;
