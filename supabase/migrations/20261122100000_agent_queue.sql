-- The agents' job queue (docs/architecture.md §6): scans, target verifications, analyses and reports live in
-- public.jobs; workers claim them through claim_jobs() with FOR UPDATE SKIP LOCKED, so any number of
-- workers on any number of machines share the queue, and a job whose worker died (lease expired) is
-- claimed again. Customers read their own jobs; every write goes through the service-role RPCs below.

create table public.jobs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  kind text not null check (kind in ('scan', 'verify', 'analysis', 'report')),
  payload jsonb not null default '{}'::jsonb check (jsonb_typeof(payload) = 'object'),
  status text not null default 'queued'
    check (status in ('queued', 'running', 'succeeded', 'failed', 'dead', 'cancelled')),
  priority smallint not null default 0,
  run_at timestamptz not null default now(),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 3 check (max_attempts between 1 and 20),
  -- First retry waits backoff_seconds, then twice that, and so on (capped at one hour).
  backoff_seconds integer not null default 30 check (backoff_seconds between 0 and 3600),
  locked_by text check (char_length(locked_by) <= 200),
  lease_until timestamptz,
  heartbeat_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  last_error text check (char_length(last_error) <= 4000),
  result jsonb,
  -- Schedule slots and other at-most-once work: a second enqueue of one key is a no-op.
  idempotency_key text unique check (char_length(idempotency_key) <= 300),
  progress jsonb not null default '{}'::jsonb check (jsonb_typeof(progress) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.jobs is 'the agents'' work queue; written only through claim_jobs/heartbeat_job/complete_job/fail_job/cancel_job/enqueue_scan';
-- The claim query's two ways in: due queued jobs, and running jobs whose lease ran out.
create index jobs_due_idx on public.jobs (priority desc, run_at) where status = 'queued';
create index jobs_lease_idx on public.jobs (lease_until) where status = 'running';
create index jobs_user_created_idx on public.jobs (user_id, created_at desc);

create trigger set_updated_at before update on public.jobs for each row execute function public.set_updated_at();
alter table public.jobs enable row level security;
revoke all on table public.jobs from anon, authenticated;
grant select on table public.jobs to authenticated;
create policy "jobs: owner reads" on public.jobs
  for select to authenticated using ((select auth.uid()) = user_id);

-- ---------------------------------------------------------------------------------------------------
-- Scan targets: what a customer may have scanned, once it is proven theirs (a token served at
-- /.well-known/vigil-verification.txt or a DNS TXT record vigil-verification=<token>).

create table public.scan_targets (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null check (kind in ('url', 'host', 'api')),
  value text not null check (char_length(value) between 1 and 2048 and value !~ '[[:space:][:cntrl:]]'),
  openapi_url text check (char_length(openapi_url) <= 2048 and openapi_url ~ '^https?://[^[:space:][:cntrl:]]+$'),
  verification_token text not null default
    replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
  verified_at timestamptz,
  verification_method text check (verification_method in ('http', 'dns')),
  verification_error text check (char_length(verification_error) <= 1000),
  -- Requests per second the scanners may send to this target.
  rate_limit integer not null default 10 check (rate_limit between 1 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, value),
  check ((verified_at is null) = (verification_method is null)),
  -- URL and API targets are http(s) URLs; host targets are a bare name or address.
  check (kind = 'host' or value ~ '^https?://'),
  check (kind <> 'host' or value !~ '/')
);
create trigger set_updated_at before update on public.scan_targets for each row execute function public.set_updated_at();
alter table public.scan_targets enable row level security;
revoke all on table public.scan_targets from anon, authenticated;
-- Customers add and remove their own targets; verified_at, the token and the method are never theirs
-- to write (column grants), so only the verifier marks a target as proven.
grant select, delete on table public.scan_targets to authenticated;
grant insert (user_id, kind, value, openapi_url, rate_limit) on table public.scan_targets to authenticated;
grant update (rate_limit) on table public.scan_targets to authenticated;
create policy "scan_targets: owner reads" on public.scan_targets
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "scan_targets: owner inserts" on public.scan_targets
  for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "scan_targets: owner updates" on public.scan_targets
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);
create policy "scan_targets: owner deletes" on public.scan_targets
  for delete to authenticated using ((select auth.uid()) = user_id);

-- Scans point at their target and job.
alter table public.scan_results add column target_id uuid references public.scan_targets (id) on delete set null;
alter table public.scan_results add column job_id uuid references public.jobs (id) on delete set null;
create index scan_results_job_id_idx on public.scan_results (job_id);
create index scan_results_target_id_idx on public.scan_results (target_id);

-- ---------------------------------------------------------------------------------------------------
-- Findings, deduplicated across scans by fingerprint (target + rule + location).

create table public.findings (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  target_id uuid references public.scan_targets (id) on delete set null,
  scan_id uuid references public.scan_results (id) on delete set null,
  scanner text not null check (scanner in ('webapp', 'infrastructure', 'api')),
  fingerprint text not null check (char_length(fingerprint) between 16 and 128),
  rule_id text not null check (char_length(rule_id) between 1 and 200),
  title text not null check (char_length(title) between 1 and 300),
  severity text not null check (severity in ('critical', 'high', 'medium', 'low', 'info')),
  cvss_vector text check (char_length(cvss_vector) <= 200),
  cvss_score numeric(3, 1) check (cvss_score between 0 and 10),
  cwe text check (cwe ~ '^CWE-[0-9]+$'),
  owasp text,
  location text not null check (char_length(location) between 1 and 2048),
  evidence text not null default '' check (char_length(evidence) <= 4000),
  remediation text not null default '',
  compliance jsonb not null default '[]'::jsonb check (jsonb_typeof(compliance) = 'array'),
  status text not null default 'open' check (status in ('open', 'fixed', 'accepted_risk', 'false_positive')),
  accepted_until timestamptz,
  first_seen timestamptz not null default now(),
  last_seen timestamptz not null default now(),
  fixed_at timestamptz,
  regression boolean not null default false,
  reopened_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, fingerprint),
  check (status <> 'accepted_risk' or accepted_until is not null),
  check (status <> 'fixed' or fixed_at is not null)
);
create index findings_user_status_idx on public.findings (user_id, status, severity);
create index findings_target_scanner_idx on public.findings (target_id, scanner);
create index findings_scan_id_idx on public.findings (scan_id);
create trigger set_updated_at before update on public.findings for each row execute function public.set_updated_at();

-- Triage by the customer: open, accepted risk (until a date at most a year ahead) or false positive.
-- Only a retest marks a finding fixed, so a customer can never close one by hand.
create or replace function public.findings_guard_triage()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('authenticated', 'anon') then
    if new.status not in ('open', 'accepted_risk', 'false_positive') then
      raise exception 'a finding is marked fixed only by a scan that no longer sees it' using errcode = '42501';
    end if;
    if new.status = 'accepted_risk' and (new.accepted_until is null or new.accepted_until <= now()
        or new.accepted_until > now() + interval '366 days') then
      raise exception 'accepted risk needs accepted_until within the next year' using errcode = '23514';
    end if;
    if new.status <> 'accepted_risk' then
      new.accepted_until := null;
    end if;
  end if;
  return new;
end;
$$;
revoke execute on function public.findings_guard_triage() from public, anon, authenticated;
create trigger findings_guard_triage before update on public.findings
  for each row execute function public.findings_guard_triage();

alter table public.findings enable row level security;
revoke all on table public.findings from anon, authenticated;
grant select on table public.findings to authenticated;
grant update (status, accepted_until) on table public.findings to authenticated;
create policy "findings: owner reads" on public.findings
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "findings: owner triages" on public.findings
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);

alter table public.security_events
  add constraint security_events_finding_id_fkey foreign key (finding_id) references public.findings (id) on delete set null;
alter table public.ai_security_recommendations
  add constraint ai_security_recommendations_finding_id_fkey foreign key (finding_id) references public.findings (id) on delete set null;
create index security_events_finding_id_idx on public.security_events (finding_id);
create index ai_security_recommendations_finding_id_idx on public.ai_security_recommendations (finding_id);

-- ---------------------------------------------------------------------------------------------------
-- Notifications: the worker queues e-mails and webhooks here and a notifier delivers them with retries.
-- Service-only: row-level security on, no policies, no grants to clients.

create table public.notification_outbox (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  channel text not null check (channel in ('email', 'webhook')),
  recipient text not null check (char_length(recipient) between 3 and 2048),
  subject text not null check (char_length(subject) between 1 and 300),
  payload jsonb not null check (jsonb_typeof(payload) = 'object'),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'dead')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz,
  dedupe_key text unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index notification_outbox_due_idx on public.notification_outbox (next_attempt_at) where status = 'pending';
create trigger set_updated_at before update on public.notification_outbox for each row execute function public.set_updated_at();
alter table public.notification_outbox enable row level security;
revoke all on table public.notification_outbox from anon, authenticated;

-- Webhook deliveries are signed with HMAC-SHA256 under this per-customer secret; Slack-style payloads on request.
alter table public.user_settings
  add column webhook_secret text not null default 'whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
  add column webhook_format text not null default 'vigil' check (webhook_format in ('vigil', 'slack'));
